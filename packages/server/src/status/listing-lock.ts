import { randomUUID } from "node:crypto";
import { isPendingWrite } from "@slotgate/protocol";
import type { Services } from "../platform/app/services.js";
import { runAsVerifiedUser } from "../chain-api/chain/caller-assertions.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { asServerError } from "../platform/http/error-handler.js";
import { type TransferHold, getLoginStatus, moveTransferHold, takeTransferHold } from "./login-status-store.js";

/**
 * The listing lock (docs/decisions/marketplace.md): a user's slot of a cuid can be sold, activated or put to
 * sleep only while the user is `logged_out` at the client that registered the cuid, and a sale holds the
 * user's login-status row (status login refused with 409 `slot_transfer_in_progress`) until its chain write
 * settled or the hold expired.
 */

/**
 * How long a transfer hold stands at most: 10 minutes. A sale's write normally settles within the
 * request's wait (`LIMITS.chainWriteWaitSeconds`) or seconds after it; a login that meets the hold of a
 * pending write looks the write up and ends the hold as soon as it settled. The bound only limits how
 * long a seller stays shut out of the game when nothing can tell (the chain service unreachable, a
 * server that stopped in the middle of a sale).
 */
export const TRANSFER_HOLD_SECONDS = 600;

/** `Retry-After` of a login refused by a hold (the chain route's 202 advises the same): capped by the hold's end. */
const HOLD_RETRY_AFTER_SECONDS = 2;

/** Whom a listing-lock check is about: the seller (`userId`, the end user's id) and the slot's cuid. */
export interface SlotHolder {
  userId: string;
  cuid: string;
}

const clientsByCuid = new WeakMap<Services, Map<string, string>>();

/**
 * The client_id that registered `cuid` (the chain service's `cuidClient`; a cuid is registered once, so
 * a found answer is kept), or null when none did or the chain is off.
 *
 * @example
 * ```ts
 * const clientId = await clientOfCuid(services, "my-game-cuid"); // "a1b2…" or null
 * ```
 */
async function clientOfCuid(services: Services, cuid: string): Promise<string | null> {
  const known = clientsByCuid.get(services) ?? new Map<string, string>();
  clientsByCuid.set(services, known);
  const cached = known.get(cuid);
  if (cached !== undefined) return cached;
  const chain = services.chain?.service;
  if (!chain) return null;
  const found = await chain.cuidClient(cuid);
  if (found !== null) known.set(cuid, found);
  return found;
}

function logoutRequired(): SlotgateServerError {
  return new SlotgateServerError("logout_required");
}

/**
 * 409 `slot_transfer_in_progress` with `Retry-After` for a hold that stands until `until`.
 *
 * @example
 * ```ts
 * throw transferInProgress(new Date(Date.now() + 60_000)); // Retry-After: 2
 * ```
 */
export function transferInProgress(until: Date): SlotgateServerError {
  const left = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new SlotgateServerError("slot_transfer_in_progress", { headers: { "Retry-After": String(Math.min(left, HOLD_RETRY_AFTER_SECONDS)) } });
}

/**
 * Refuses (409 `logout_required`) while `who.userId` is logged in at the client that registered
 * `who.cuid` (no status record = logged out; a cuid no client registered: allowed). For slot
 * activation and sleep, which move no ownership and take no hold.
 *
 * @example
 * ```ts
 * await assertLoggedOut(services, { userId: claims.sub, cuid: body.cu_id });
 * ```
 */
export async function assertLoggedOut(services: Services, who: SlotHolder): Promise<void> {
  const clientId = await clientOfCuid(services, who.cuid);
  if (clientId === null) return;
  const row = await getLoginStatus(services.db, who.userId, clientId);
  if (row?.status === "logged_in") throw logoutRequired();
}

/**
 * Ends `hold` on (user, client) when the sale behind it settled: a hold of a pending chain write
 * (`write:<id>`) whose write the chain service reports `confirmed` or `failed` (or does not know), or a
 * hold that expired. Answers whether the hold is gone; a chain service that cannot answer leaves it.
 *
 * @example
 * ```ts
 * if (!(await settleTransferHold(services, { userId: "7", clientId: "game" }, hold))) throw transferInProgress(hold.until);
 * ```
 */
export async function settleTransferHold(services: Services, who: { userId: string; clientId: string }, hold: TransferHold): Promise<boolean> {
  if (hold.until.getTime() <= Date.now() || hold.ref === "") return true;
  const writeId = /^write:(.+)$/.exec(hold.ref)?.[1];
  const chain = services.chain?.service;
  if (writeId === undefined || !chain) return false;
  let settled: boolean;
  try {
    const answer = await runAsVerifiedUser(Number(who.userId), () => chain.lookupWrite({ user_uuid: Number(who.userId) }, writeId));
    settled = answer.status === "confirmed" || answer.status === "failed";
  } catch (error) {
    const known = asServerError(error);
    if (known?.code !== "write_not_found") return false;
    settled = true;
  }
  if (!settled) return false;
  await moveTransferHold(services.db, { ...who, ref: hold.ref, to: null });
  return true;
}

/**
 * An error whose outcome is known: the chain service refused the sale (a coded 4xx), so no write of it
 * is in flight. Anything else (5xx, a broken link, an unexpected error) may have left a write recorded.
 */
function refusedForSure(error: unknown): boolean {
  const known = asServerError(error);
  return known !== null && known.status < 500;
}

/**
 * Runs a sale's chain write (`work`) under the listing lock: the check (the seller is `logged_out` at
 * the client that registered the cuid; 409 `logout_required` otherwise) and a transfer hold on the
 * seller's login-status row are ONE statement; while the hold stands the seller's status login is
 * refused (409 `slot_transfer_in_progress`). The hold ends when `work` answers or is refused; a 202
 * pending write keeps it under the write's id until the write settles (a login looks it up) or the hold
 * expires ({@link TRANSFER_HOLD_SECONDS}); an error of unknown outcome keeps it until it expires.
 * A second sale by the same seller while a hold stands: 409 `slot_transfer_in_progress`.
 *
 * @example
 * ```ts
 * const answer = await withTransferHold(services, { userId: body.from_uuid, cuid: body.cu_id }, () => chain.exchangeSlotOwner(body, write));
 * ```
 */
export async function withTransferHold<T>(services: Services, who: SlotHolder, work: () => Promise<T>): Promise<T> {
  const clientId = await clientOfCuid(services, who.cuid);
  if (clientId === null) return work();
  const row = { userId: who.userId, clientId };
  const ref = `hold:${randomUUID()}`;
  let taken = await takeTransferHold(services.db, { ...row, ref, seconds: TRANSFER_HOLD_SECONDS });
  if (!taken.taken && taken.reason === "held" && (await settleTransferHold(services, row, taken.hold))) {
    taken = await takeTransferHold(services.db, { ...row, ref, seconds: TRANSFER_HOLD_SECONDS });
  }
  if (!taken.taken) throw taken.reason === "logged_in" ? logoutRequired() : transferInProgress(taken.hold.until);
  let answer: T;
  try {
    answer = await work();
  } catch (error) {
    if (refusedForSure(error)) await release(services, row, ref);
    throw error;
  }
  if (isPendingWrite(answer))
    await moveTransferHold(services.db, { ...row, ref, to: `write:${answer.write_id}` }).catch((error: unknown) => logReleaseFailure(services, error));
  else await release(services, row, ref);
  return answer;
}

/** Ends the hold; a failure is logged (the sale's answer stands; the hold expires on its own). */
async function release(services: Services, row: { userId: string; clientId: string }, ref: string): Promise<void> {
  await moveTransferHold(services.db, { ...row, ref, to: null }).catch((error: unknown) => logReleaseFailure(services, error));
}

function logReleaseFailure(services: Services, error: unknown): void {
  services.log.warn("transfer hold not updated; it expires on its own", { error: error instanceof Error ? error.message : String(error) });
}
