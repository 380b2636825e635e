import type { GrantType } from "@slotgate/protocol";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { type ClientRow, findClient } from "./clients-store.js";
import type { Queryable } from "@slotgate/storage";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Client credentials as presented on a request. */
export interface PresentedCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  method: "client_secret_basic" | "client_secret_post" | "none";
}

/**
 * Reads client credentials from HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or the body.
 * Both at once is 400 invalid_request; a body client_id that differs from Basic's is invalid_request.
 */
export function presentedCredentials(authorization: string | undefined, body: Record<string, unknown>): PresentedCredentials {
  const bodyId = typeof body["client_id"] === "string" ? body["client_id"] : undefined;
  const bodySecret = typeof body["client_secret"] === "string" ? body["client_secret"] : undefined;
  const basic = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(authorization ?? "");
  if (basic) {
    if (bodySecret !== undefined) {
      throw new SlotgateServerError("invalid_request", { message: "Invalid request: send client credentials either in HTTP Basic or in the body, not both" });
    }
    const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw clientError(true);
    let id: string;
    let secret: string;
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    } catch {
      throw clientError(true);
    }
    if (bodyId !== undefined && bodyId !== id) throw clientError(true);
    return { clientId: id, clientSecret: secret, method: "client_secret_basic" };
  }
  return { clientId: bodyId, clientSecret: bodySecret, method: bodySecret !== undefined ? "client_secret_post" : "none" };
}

function clientError(basic: boolean): SlotgateServerError {
  return new SlotgateServerError("invalid_client", basic ? { headers: { "WWW-Authenticate": 'Basic realm="slotgate"' } } : {});
}

/** Whether a client is public (`token_endpoint_auth_method: "none"`): no secret, PKCE on every code. */
export function isPublicClient(client: ClientRow): boolean {
  return client.token_endpoint_auth_method === "none";
}

/**
 * Authenticates a confidential client; 401 invalid_client for an unknown client, a wrong secret, or a
 * public client (it has no secret, so none can match).
 */
export async function authenticateClient(services: Services, creds: PresentedCredentials): Promise<ClientRow> {
  const basic = creds.method === "client_secret_basic";
  if (!creds.clientId || !creds.clientSecret || creds.clientId.length > 128 || creds.clientSecret.length > 512) throw clientError(basic);
  const client = await services.clients.get(creds.clientId);
  if (!client || isPublicClient(client) || !secretMatches(services, client, creds.clientSecret)) throw clientError(basic);
  return client;
}

/**
 * The client of an authorization-code exchange: a public client (`none`) by its `client_id` alone, the
 * code then proven with PKCE S256 (RFC 8252 section 8.4, RFC 7636); any other client authenticated by its
 * secret as {@link authenticateClient}. A public client that sends a secret is 401 invalid_client.
 */
export async function codeExchangeClient(services: Services, creds: PresentedCredentials): Promise<ClientRow> {
  if (creds.method === "none" && creds.clientId && creds.clientId.length <= 128) {
    const client = await services.clients.get(creds.clientId);
    if (client && isPublicClient(client)) return client;
  }
  return authenticateClient(services, creds);
}

/**
 * Whether `secret` is the client's current secret or, during the overlap window after a rotation
 * (`CLIENT_SECRET_OVERLAP_SECONDS`), its previous one.
 */
function secretMatches(services: Pick<Services, "secrets">, client: ClientRow, secret: string): boolean {
  if (services.secrets.verify(secret, client.secret_hash)) return true;
  const until = client.previous_secret_expires_at;
  return (
    client.previous_secret_hash !== null &&
    until !== null &&
    new Date(until).getTime() > Date.now() &&
    services.secrets.verify(secret, client.previous_secret_hash)
  );
}

/**
 * Identifies the client of a device request: a confidential client when a secret is presented
 * (checked as {@link authenticateClient}), else a public client by its `client_id` alone (a console
 * cannot keep a secret, RFC 8628 section 3.1). 401 invalid_client for an unknown client.
 */
export async function identifyClient(services: Services, creds: PresentedCredentials): Promise<ClientRow> {
  if (creds.clientSecret !== undefined) return authenticateClient(services, creds);
  const client = creds.clientId && creds.clientId.length <= 128 ? await services.clients.get(creds.clientId) : null;
  if (!client) throw clientError(false);
  return client;
}

/** 400 unauthorized_client unless the client registered the grant (`grant_types`). */
export function requireGrant(client: ClientRow, grant: GrantType): void {
  if (!client.grant_types.includes(grant)) {
    throw new SlotgateServerError("unauthorized_client", {
      message: `This client is not registered for the ${grant} grant; register it with that grant in grant_types.`,
    });
  }
}

/**
 * Client registrations cached for a few seconds: the token and validate paths read the same client on
 * every request. The developer center changes registrations (redirect URIs, secret, disabled): a change
 * made through this instance drops the entry at once ({@link ClientCache.forget}); other instances see
 * it within `ttlMs` (docs/decisions/developer-center.md). Misses are not cached.
 */
export class ClientCache {
  private readonly entries = new Map<string, { row: ClientRow; at: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 5_000,
  ) {}

  /** The client, or null when unknown, disabled or deleted: such a client can neither sign users in nor authenticate. */
  async get(clientId: string): Promise<ClientRow | null> {
    const row = await this.getAny(clientId);
    return row && row.disabled_at === null && row.deleted_at === null ? row : null;
  }

  /** The client row whatever its state (disabled and deleted included), or null when unknown. */
  async getAny(clientId: string): Promise<ClientRow | null> {
    const hit = this.entries.get(clientId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.row;
    const row = await findClient(this.db, clientId);
    if (row) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(clientId, { row, at: Date.now() });
    }
    return row;
  }

  /** Drops a cached registration after it changed. */
  forget(clientId: string): void {
    this.entries.delete(clientId);
  }
}

/**
 * Client secrets: 256 random bits (43 base64url characters) shown once; stored as
 * HMAC-SHA256 under a server-side pepper. A keyed fast hash (not a password KDF) is right here:
 * the secret already has full entropy, and a slow KDF would cap the token endpoint.
 */
export class ClientSecrets {
  constructor(private readonly pepper: string) {}

  /** A new client secret. */
  generate(): string {
    return randomBytes(32).toString("base64url");
  }

  /** The stored form of a secret. */
  hash(secret: string): string {
    return createHmac("sha256", this.pepper).update(secret).digest("base64url");
  }

  /** Constant-time comparison of a presented secret with a stored hash. */
  verify(secret: string, storedHash: string): boolean {
    const a = Buffer.from(this.hash(secret));
    const b = Buffer.from(storedHash);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/** A new client id: `sg_` + 24 hex characters. */
export function newClientId(): string {
  return `sg_${randomBytes(12).toString("hex")}`;
}
