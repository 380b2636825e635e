import { ConfigError, type Env, isLoopbackHost } from "./env.js";
import type { IdentityProviderConfig } from "./config.js";

/** The variables of the sign-in methods: IDENTITY_PROVIDERS, MAIL_FROM, PASSKEY_RP_ID (SMTP_URL is a plain URL). */

/** `IDENTITY_PROVIDERS`: a JSON array of upstream OpenID Connect providers. */
export function identityProviders(env: Env): IdentityProviderConfig[] {
  const name = "IDENTITY_PROVIDERS";
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(name, "must be a JSON array of {id, name, issuer, client_id, client_secret, scopes?}");
  }
  if (!Array.isArray(parsed)) throw new ConfigError(name, "must be a JSON array of {id, name, issuer, client_id, client_secret, scopes?}");
  const seen = new Set<string>();
  return parsed.map((entry: unknown, i: number) => {
    const e = (entry && typeof entry === "object" ? entry : {}) as Record<string, unknown>;
    const str = (field: string, max: number) => {
      const v = e[field];
      if (typeof v !== "string" || v.length === 0 || v.length > max)
        throw new ConfigError(name, `entry ${i}: ${field} must be a non-empty string of at most ${max} characters`);
      return v;
    };
    const id = str("id", 32);
    if (!/^[a-z0-9-]+$/.test(id)) throw new ConfigError(name, `entry ${i}: id must use lowercase letters, digits and -`);
    if (seen.has(id)) throw new ConfigError(name, `entry ${i}: id ${id} is used twice`);
    seen.add(id);
    const issuer = str("issuer", 2048);
    let parsedIssuer: URL;
    try {
      parsedIssuer = new URL(issuer);
    } catch {
      throw new ConfigError(name, `entry ${i} (${id}): issuer must be an absolute URL`);
    }
    if (parsedIssuer.protocol !== "https:" && !(parsedIssuer.protocol === "http:" && isLoopbackHost(parsedIssuer.hostname))) {
      throw new ConfigError(name, `entry ${i} (${id}): issuer must use https (http only on a loopback host)`);
    }
    const scopes = e["scopes"] === undefined ? "openid email profile" : str("scopes", 512);
    if (!scopes.split(" ").includes("openid")) throw new ConfigError(name, `entry ${i} (${id}): scopes must include openid`);
    return { id, name: str("name", 64), issuer, client_id: str("client_id", 512), client_secret: str("client_secret", 1024), scopes };
  });
}

/** `MAIL_FROM`: one address, no line breaks. */
export function mailFrom(env: Env): string {
  const raw = env["MAIL_FROM"];
  if (raw === undefined || raw === "") return "Slotgate <no-reply@slotgate.localhost>";
  if (raw.length > 320 || /[\r\n]/.test(raw) || !/@/.test(raw)) throw new ConfigError("MAIL_FROM", "must be one address, e.g. Slotgate <no-reply@example.com>");
  return raw;
}

/** `PASSKEY_RP_ID`: the public URL's host or a parent domain of it. */
export function passkeyRpId(env: Env, publicUrl: string | null): string | null {
  const raw = env["PASSKEY_RP_ID"];
  if (raw === undefined || raw === "") return null;
  if (!/^[a-z0-9.-]{1,253}$/.test(raw)) throw new ConfigError("PASSKEY_RP_ID", "must be a lowercase host name such as example.com");
  if (publicUrl) {
    const host = new URL(publicUrl).hostname;
    if (host !== raw && !host.endsWith(`.${raw}`)) throw new ConfigError("PASSKEY_RP_ID", `must be ${host} or a parent domain of it (PUBLIC_URL)`);
  }
  return raw;
}
