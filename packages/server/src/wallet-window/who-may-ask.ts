import { redirectUriAllowed, type WalletConfirmationRequest } from "@slotgate/protocol";
import type { Services } from "../platform/app/services.js";
import { chainOf } from "../chain-api/chain/chain-of.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import type { ClientRow } from "../oauth/clients/clients-store.js";

/**
 * Who may ask a player for what (docs/decisions/wallet-window.md): the redirect URI must be registered
 * for the asking client (the window posts the outcome to its origin only); `approve_purchases` only for
 * a cuid the client registered, `slot_hand_over` only of a slot of a cu_id the client registered (403
 * `cuid_not_owned`); a `token_transfer` any client may ask, the player reads who asks and to where;
 * and the player must have a wallet (404 `wallet_not_found`).
 *
 * @example
 * ```ts
 * await requireMayAsk(services, client, { user_uuid: 7, redirect_uri, request: { kind: "approve_purchases", cuid: "game-1", amount: "10" } });
 * ```
 */
export async function requireMayAsk(
  services: Services,
  client: ClientRow,
  ask: { user_uuid: number; redirect_uri: string; request: WalletConfirmationRequest },
): Promise<void> {
  if (!redirectUriAllowed(client, ask.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
  const chain = chainOf(services);
  const cuid = ask.request.kind === "approve_purchases" ? ask.request.cuid : ask.request.kind === "slot_hand_over" ? ask.request.cu_id : null;
  if (cuid !== null && (await chain.cuidClient(cuid)) !== client.client_id) throw new SlotgateServerError("cuid_not_owned");
  if ((await chain.walletAddressFor(ask.user_uuid)) === null) throw new SlotgateServerError("wallet_not_found");
}
