import { randomUUID } from "node:crypto";
import type { Services } from "../platform/app/services.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { type ClientRow, insertClient, insertClientAudit, toClientApplication } from "../oauth/clients/clients-store.js";
import { type DevUserRow, findDevUserByEmail, insertDevUser } from "./dev-users-store.js";
import { dummyPasswordHash, hashPassword, verifyPassword } from "../identity/users/passwords.js";
import { passwordAttempt, signInThrottled } from "../identity/users/sign-in-backoff.js";
import { newClientId } from "../oauth/clients/client-auth.js";
import type { ClientRegistrationRequest, ClientRegistrationResponse, PublicClientRegistrationResponse } from "@slotgate/protocol";

/** Creates a developer user; 409 email_taken when the email exists. */
export async function createDevUser(services: Pick<Services, "db" | "scrypt">, email: string, password: string): Promise<DevUserRow> {
  const row = await insertDevUser(services.db, {
    uuid: randomUUID(),
    email: email.trim().toLowerCase(),
    passwordHash: await hashPassword(password, services.scrypt),
  });
  if (!row) throw new SlotgateServerError("email_taken");
  return row;
}

/**
 * Checks developer credentials under the account's backoff: 401 invalid_credentials (same answer and
 * time for an unknown email), 429 sign_in_throttled with the wait while the email must wait.
 */
export async function authenticateDevUser(services: Pick<Services, "db" | "scrypt" | "config">, email: string, password: string): Promise<DevUserRow> {
  const normalised = email.trim().toLowerCase();
  const row = await findDevUserByEmail(services.db, normalised);
  const verify = async () => (await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash(services.scrypt)))) && row !== null;
  const attempt = await passwordAttempt(services, "dev_user", normalised, verify);
  if (!attempt.checked) throw signInThrottled(attempt);
  if (!row || !attempt.ok) throw new SlotgateServerError("invalid_credentials");
  return row;
}

/**
 * Registers a client application for a developer; returns the row and the one-time secret (`null` for a
 * public client, `token_endpoint_auth_method: "none"`, which has none). `actor` goes to the audit list.
 */
export async function registerClient(
  services: Pick<Services, "db" | "secrets">,
  devUserId: string,
  request: ClientRegistrationRequest,
  actor = "cli",
): Promise<{ row: ClientRow; secret: string | null }> {
  const method = request.token_endpoint_auth_method ?? "client_secret_basic";
  const secret = method === "none" ? null : services.secrets.generate();
  const row = await insertClient(services.db, {
    client_id: newClientId(),
    dev_user_id: devUserId,
    name: request.name,
    secret_hash: secret === null ? "" : services.secrets.hash(secret),
    redirect_uris: [...new Set(request.redirect_uris)],
    download_url: request.download_url,
    web_url: request.web_url,
    platform: request.platform,
    blockchain: request.blockchain,
    grant_types: request.grant_types ?? ["authorization_code"],
    token_endpoint_auth_method: method,
  });
  await insertClientAudit(services.db, row.client_id, actor, "client.registered", {
    name: row.name,
    redirect_uris: row.redirect_uris,
    platform: row.platform,
    blockchain: row.blockchain,
    token_endpoint_auth_method: method,
  });
  return { row, secret };
}

/**
 * The answer to a registration (HTTP and CLI): the client with its one-time secret, or without one for a
 * public client (RFC 7591 section 3.2.1 leaves `client_secret` out).
 *
 * @example
 * ```ts
 * const { row, secret } = await registerClient(services, owner.id, body);
 * res.status(201).json(registrationAnswer(row, secret));
 * ```
 */
export function registrationAnswer(row: ClientRow, secret: string | null): ClientRegistrationResponse | PublicClientRegistrationResponse {
  if (secret === null) return { success: true, ...toClientApplication(row), token_endpoint_auth_method: "none" };
  return { success: true, ...toClientApplication(row), client_secret: secret };
}
