import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";

/** What the local provider says about an account (its `sub` is the login typed on the provider's page). */
export interface LocalIdpAccount {
  email?: string;
  email_verified?: boolean;
}

/** Options of {@link startLocalIdentityProvider}. */
export interface LocalIdentityProviderOptions {
  /** The Slotgate server's public URL: the client's redirect URI is `{slotgateUrl}/oauth/idp/callback`. */
  slotgateUrl: string;
  /** Port on 127.0.0.1. @default 0 (any free port) */
  port?: number;
  /**
   * Claims of a login with no entry in `accounts`: with `emailDomain`, `{login}@{emailDomain}`, verified;
   * without it, no email at all.
   * @default undefined
   */
  emailDomain?: string;
}

/** A running local OpenID provider. */
export interface LocalIdentityProvider {
  /** `http://127.0.0.1:{port}`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login; change it while the provider runs. */
  accounts: Map<string, LocalIdpAccount>;
  /** The provider as an `IDENTITY_PROVIDERS` entry. */
  entry(id?: string, name?: string): { id: string; name: string; issuer: string; client_id: string; client_secret: string; scopes: string };
  close(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider on 127.0.0.1 for development and tests
 * ([node-oidc-provider](https://github.com/panva/node-oidc-provider), an optional peer dependency:
 * `npm install -D oidc-provider`), with one confidential client for Slotgate (authorization code +
 * PKCE, ES256 ID tokens, scopes `openid email`). Its development login page accepts any login and
 * password, then asks for consent. Not for production.
 *
 * @example
 * ```ts
 * import { startLocalIdentityProvider } from "@slotgate/server/testing";
 * const idp = await startLocalIdentityProvider({ slotgateUrl: "http://localhost:8080", emailDomain: "idp.example" });
 * process.env.IDENTITY_PROVIDERS = JSON.stringify([idp.entry("local", "the local identity provider")]);
 * ```
 */
export async function startLocalIdentityProvider(options: LocalIdentityProviderOptions): Promise<LocalIdentityProvider> {
  const { default: Provider } = await import("oidc-provider").catch((error: unknown) => {
    throw new Error("startLocalIdentityProvider needs the oidc-provider package: npm install -D oidc-provider", { cause: error });
  });
  const accounts = new Map<string, LocalIdpAccount>();
  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const clientId = "slotgate";
  const clientSecret = randomBytes(24).toString("base64url");
  const claimsOf = (sub: string): LocalIdpAccount =>
    accounts.get(sub) ??
    (options.emailDomain ? { email: `${sub.toLowerCase().replace(/[^a-z0-9._-]/g, "-")}@${options.emailDomain}`, email_verified: true } : {});
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${options.slotgateUrl.replace(/\/+$/, "")}/oauth/idp/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "local-idp", alg: "ES256", use: "sig" }] },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, ...claimsOf(sub) }) };
    },
  });
  provider.proxy = false;
  http.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    entry: (id = "local", name = "the local identity provider") => ({
      id,
      name,
      issuer,
      client_id: clientId,
      client_secret: clientSecret,
      scopes: "openid email",
    }),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
