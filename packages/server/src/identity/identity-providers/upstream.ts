import type { Configuration } from "openid-client";
import type { IdentityProviderConfig } from "../../platform/config/config.js";
import type { Logger } from "../../platform/config/logger.js";
import { SlotgateServerError } from "../../platform/http/errors.js";

/** What the server keeps of an upstream sign-in: who the provider says the user is. */
export interface UpstreamIdentity {
  provider_id: string;
  /** The provider's issuer identifier (with `subject`, the identity's key). */
  issuer: string;
  subject: string;
  /** The email the provider vouches for (`email_verified: true`), lower-cased; null otherwise. */
  verifiedEmail: string | null;
}

/** The one-time values of one upstream authorization request. */
export interface UpstreamChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

type OpenIdClient = typeof import("openid-client");

/**
 * The configured upstream OpenID Connect providers (`IDENTITY_PROVIDERS`), through openid-client:
 * discovery on first use (cached; retried on the next sign-in when the provider was down), the
 * authorization-code flow with PKCE (S256), state and nonce, and the ID token's claims.
 *
 * @example
 * ```ts
 * const url = await providers.authorizationUrl("google", checks, `${issuer}/oauth/idp/callback`);
 * const identity = await providers.complete("google", callbackUrl, checks);
 * ```
 */
export class IdentityProviders {
  private readonly configs = new Map<string, Promise<Configuration>>();
  private lib: Promise<OpenIdClient> | undefined;

  constructor(
    readonly list: readonly IdentityProviderConfig[],
    private readonly log: Logger,
  ) {}

  /** The provider with this id, or null. */
  get(id: string): IdentityProviderConfig | null {
    return this.list.find((p) => p.id === id) ?? null;
  }

  private client(): Promise<OpenIdClient> {
    this.lib ??= import("openid-client");
    return this.lib;
  }

  private configuration(provider: IdentityProviderConfig): Promise<Configuration> {
    let config = this.configs.get(provider.id);
    if (!config) {
      config = this.client().then((oidc) =>
        oidc.discovery(new URL(provider.issuer), provider.client_id, undefined, oidc.ClientSecretBasic(provider.client_secret), {
          execute: provider.issuer.startsWith("http:") ? [oidc.allowInsecureRequests] : [],
          timeout: 10,
        }),
      );
      config.catch(() => this.configs.delete(provider.id));
      this.configs.set(provider.id, config);
    }
    return config;
  }

  /** Fresh state, nonce and PKCE verifier. */
  async newChecks(): Promise<UpstreamChecks> {
    const oidc = await this.client();
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  }

  /** The provider's authorization URL for this request; 502 identity_provider_error when its discovery fails. */
  async authorizationUrl(provider: IdentityProviderConfig, checks: UpstreamChecks, redirectUri: string): Promise<string> {
    try {
      const oidc = await this.client();
      const config = await this.configuration(provider);
      return oidc
        .buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: provider.scopes,
          state: checks.state,
          nonce: checks.nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
          code_challenge_method: "S256",
        })
        .toString();
    } catch (error) {
      throw this.failure(provider, "discovery", error);
    }
  }

  /**
   * Completes the flow at the callback: checks the response (state, issuer), redeems the code with
   * the PKCE verifier, validates the ID token (signature, audience, nonce) and reads the identity; the
   * email comes from the ID token or, when absent there, the userinfo endpoint.
   */
  async complete(provider: IdentityProviderConfig, callbackUrl: URL, checks: UpstreamChecks): Promise<UpstreamIdentity> {
    try {
      const oidc = await this.client();
      const config = await this.configuration(provider);
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      let email: unknown = claims["email"];
      let verified: unknown = claims["email_verified"];
      if (email === undefined && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = info.email;
        verified = info.email_verified;
      }
      return {
        provider_id: provider.id,
        issuer: config.serverMetadata().issuer,
        subject: claims.sub,
        verifiedEmail: typeof email === "string" && verified === true && email.length <= 254 ? email.trim().toLowerCase() : null,
      };
    } catch (error) {
      throw this.failure(provider, "callback", error);
    }
  }

  private failure(provider: IdentityProviderConfig, step: string, error: unknown): SlotgateServerError {
    const e = error as { code?: unknown; error?: unknown; name?: unknown };
    // The code, error name and OAuth error only: never the response, a token or the URL.
    this.log.warn("identity provider sign-in failed", { provider: provider.id, step, error: String(e.code ?? e.error ?? e.name ?? "unknown").slice(0, 80) });
    return new SlotgateServerError("identity_provider_error", {
      message: `${provider.name} did not complete the sign-in; try again or use another way to sign in.`,
      cause: error,
    });
  }
}
