import { timingSafeEqual } from "node:crypto";
import type { ChainService, WriteOptions } from "@slotgate/chain-service";
import type { ActorRule, AnyEndpoint } from "@slotgate/protocol/endpoints";
import type { Request } from "express";
import type { Services } from "../app/services.js";
import { chainOf } from "../../chain-api/chain/chain-of.js";
import { basicClient, requireSameClient } from "../../oauth/clients/client-basic.js";
import { authenticateClient } from "../../oauth/clients/client-auth.js";
import { type BearerClaims, bearerFrom } from "../../oauth/keys/tokens.js";
import type { ClientRow } from "../../oauth/clients/clients-store.js";
import { type DevUserRow, findDevUserByUuid } from "../../developer/dev-users-store.js";
import { SlotgateServerError } from "./errors.js";

/** Who called an endpoint, as its row's `auth` authenticated them. */
export interface Caller {
  /** The client application (`basic` or `client_post`), else null. */
  client: ClientRow | null;
  /** The end user's verified bearer token (`user_bearer`), else null. */
  claims: BearerClaims | null;
  /** The developer of a developer session token (`developer_bearer`), else null. */
  developer: DevUserRow | null;
  /** The request's validated `Idempotency-Key` for a write row's chain call; empty otherwise. */
  write: WriteOptions;
  /** The chain service; 503 service_unavailable when the server runs with `CHAIN=off`. */
  readonly chain: ChainService;
}

/** The developer of a developer session token; 401 invalid_token when it is missing, wrong, or its account is gone. */
export async function developerFrom(services: Services, req: Request): Promise<DevUserRow> {
  const uuid = await services.tokens.verifyDevToken(bearerFrom(req.headers.authorization));
  const row = await findDevUserByUuid(services.db, uuid);
  if (!row) throw new SlotgateServerError("invalid_token");
  return row;
}

/** The marketplace's shared secret as a bearer token (compared in constant time); 401 invalid_client otherwise. */
function requireMarketplace(services: Services, req: Request): void {
  const secret = services.config.marketplaceSecret;
  const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const ok = secret !== null && presented.length === secret.length && timingSafeEqual(Buffer.from(presented), Buffer.from(secret));
  if (!ok) throw new SlotgateServerError("invalid_client", { message: "The marketplace must authenticate with Authorization: Bearer <MARKETPLACE_SECRET>." });
}

/**
 * Authenticates a request as its row's `auth` says, before its input is read (`client_post` reads the
 * body: see {@link authenticateFromBody}). With both `basic` and `user_bearer`, a bearer token is a
 * user's and anything else a client's.
 */
export async function authenticate(services: Services, row: AnyEndpoint, req: Request): Promise<Omit<Caller, "write" | "chain">> {
  const caller: Omit<Caller, "write" | "chain"> = { client: null, claims: null, developer: null };
  const auth = row.auth;
  const bearer = /^bearer /i.test(req.headers.authorization ?? "");
  if (auth.includes("user_bearer") && (bearer || !auth.includes("basic"))) {
    caller.claims = await services.tokens.verifyBearer(bearerFrom(req.headers.authorization));
  } else if (auth.includes("basic")) {
    caller.client = await basicClient(services, req);
  } else if (auth.includes("developer_bearer")) {
    caller.developer = await developerFrom(services, req);
  } else if (auth.includes("marketplace_bearer")) {
    requireMarketplace(services, req);
  }
  return caller;
}

/** `client_post`: the client_id and client_secret of the parsed body (`client_secret_post`); 401 invalid_client when wrong. */
export async function authenticateFromBody(services: Services, body: { client_id?: unknown; client_secret?: unknown }): Promise<ClientRow> {
  return authenticateClient(services, { clientId: String(body.client_id), clientSecret: String(body.client_secret), method: "client_secret_post" });
}

/** The bearer token's `sub` must be `userId` (403 token_user_mismatch otherwise). */
export function requireSameUser(claims: BearerClaims, userId: string | number): void {
  if (claims.sub !== String(userId)) {
    throw new SlotgateServerError("token_user_mismatch", { message: "The bearer token does not belong to this user." });
  }
}

/** One actor rule: the field (when given) must name the caller: 403 token_user_mismatch otherwise. */
function checkActor(rule: ActorRule, input: Record<string, unknown>, caller: Pick<Caller, "client" | "claims">): void {
  const value = input[rule.field];
  if (value === undefined) return;
  if (rule.is === "client" && caller.client) requireSameClient(caller.client, String(value));
  if (rule.is === "user" && caller.claims) requireSameUser(caller.claims, value as string | number);
  if (rule.is === "token_client" && caller.claims && caller.claims.client_id !== value) {
    throw new SlotgateServerError("token_user_mismatch", { message: "The bearer token was issued to another client." });
  }
}

/**
 * Checks a row's actor rules against the parsed input: the ones checked right after parsing
 * (`deferred: false`, what `mountEndpoint` does), or the ones with `checkedAfter` (`deferred: true`,
 * the handler's, once it made the checks they come after). `developer_client` rules need the records
 * and stay the handler's (404 client_not_found from the developer center's own lookup).
 *
 * @example
 * ```ts
 * // in the metaAuthorize handler, once the client is known to exist:
 * checkActors(ENDPOINTS.metaAuthorize, query, caller, { deferred: true });
 * ```
 */
export function checkActors(row: AnyEndpoint, input: object, caller: Pick<Caller, "client" | "claims">, options: { deferred: boolean }): void {
  for (const rule of row.actors ?? []) {
    if (rule.is === "developer_client" || Boolean(rule.checkedAfter) !== options.deferred) continue;
    checkActor(rule, input as Record<string, unknown>, caller);
  }
}

/** Builds the {@link Caller} a handler receives (the chain service looked up when used). */
export function callerOf(services: Services, who: Omit<Caller, "write" | "chain">, write: WriteOptions): Caller {
  return {
    ...who,
    write,
    get chain() {
      return chainOf(services);
    },
  };
}
