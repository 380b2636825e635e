import { isPendingWrite } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import type { Router } from "express";
import type { Services } from "../platform/app/services.js";
import { runAsVerifiedUser } from "../chain-api/chain/caller-assertions.js";
import { chainOf } from "../chain-api/chain/chain-of.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { jsonBody, parseInput } from "../platform/http/input.js";
import { type WindowLimits, windowPlayer } from "./window-session.js";

/** One consent the approvals window lists: a cuid of the asking client and what it may still spend (XOTN wei). */
export interface ConsentRow {
  cuid: string;
  amount: string;
}

/**
 * The player's purchase consents for the cuids `clientId` registered (a client's window shows its own
 * games only), read from the chain.
 *
 * @example
 * ```ts
 * const rows = await consentsFor(services, "7", client.client_id); // [{ cuid: "game-1", amount: "5000" }]
 * ```
 */
export async function consentsFor(services: Services, userId: string, clientId: string): Promise<ConsentRow[]> {
  const chain = chainOf(services);
  const { cuids } = await chain.providerStatus(clientId);
  return Promise.all(cuids.map(async ({ cuid }) => ({ cuid, amount: await chain.purchaseConsent(Number(userId), cuid) })));
}

/**
 * `POST /wallet/approvals/revoke` (same origin, CSRF double-submit, the player of the browser session of
 * `client_id`, the PIN shares the window keeps): ends the consent for one cuid the client registered (403
 * `cuid_not_owned` for another's) with the chain service's `revoke_purchases`.
 *
 * @example
 * ```ts
 * revokeRoute(router, services, windowLimits(services));
 * ```
 */
export function revokeRoute(router: Router, services: Services, limits: WindowLimits): void {
  router.post(ENDPOINTS.walletRevokePurchases.path, limits.perIp, jsonBody, async (req, res) => {
    const body = parseInput(ENDPOINTS.walletRevokePurchases.input.body, req.body);
    const userUuid = Number(windowPlayer(services, req, body.csrf_token, body.client_id));
    await limits.forPlayer(req, res, String(userUuid));
    const chain = chainOf(services);
    if ((await chain.cuidClient(body.cuid)) !== body.client_id) throw new SlotgateServerError("cuid_not_owned");
    const answer = await runAsVerifiedUser(userUuid, () =>
      chain.verifyPin(
        {
          user_uuid: userUuid,
          pin_hash: body.pin_hash,
          pin_salt: body.pin_salt,
          key_share_user: body.key_share_user,
          operation: { kind: "revoke_purchases", cuid: body.cuid },
        },
        {},
      ),
    );
    const outcome = isPendingWrite(answer) ? { write_id: answer.write_id } : answer.tx_hash ? { tx_hash: answer.tx_hash } : {};
    res.set("Cache-Control", "no-store").json({ success: true, status: "approved", ...outcome });
  });
}
