import { randomBytes } from "node:crypto";
import { ENDPOINTS, fillPath } from "@slotgate/protocol/endpoints";
import type { WalletConfirmationResponse } from "@slotgate/protocol";
import { Router } from "express";
import type { Services } from "../platform/app/services.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { mountEndpoint } from "../platform/http/mount-endpoint.js";
import { chainOf } from "../chain-api/chain/chain-of.js";
import { type ConfirmationRow, findConfirmation, insertConfirmation, wireStatus } from "./confirmations-store.js";
import { settleAbandonedApprove } from "./approve.js";
import { requireMayAsk } from "./who-may-ask.js";

/** A confirmation's id: 32 random bytes, base64url (unguessable; it is also the window's URL). */
function newConfirmationId(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The wire view of a confirmation whose approve left a durable chain write that had not landed within the
 * wait: its state read from the chain service (`lookupWrite` for the confirmation's player), and once it
 * settled its transaction, or the write's error (the confirmation then reads `failed`).
 */
async function withWrite(services: Services, row: ConfirmationRow, view: WalletConfirmationResponse): Promise<WalletConfirmationResponse> {
  if (!row.write_id || row.tx_hash) return view;
  const write = await chainOf(services).lookupWrite({ user_uuid: Number(row.user_id) }, row.write_id);
  const result = write.result ?? {};
  const txHash = result["tx_hash"] ?? result["transaction_hash"];
  return {
    ...view,
    write_status: write.status,
    ...(write.status === "confirmed" && typeof txHash === "string" ? { tx_hash: txHash } : {}),
    ...(write.status === "failed" ? { status: "failed" as const, ...(write.error ? { error: write.error } : {}) } : {}),
  };
}

/** The wire view of a stored confirmation (no key share, no PIN, nothing the player typed). */
export function confirmationView(row: ConfirmationRow): WalletConfirmationResponse {
  return {
    success: true,
    id: row.id,
    kind: row.kind,
    status: wireStatus(row),
    tx_hash: row.tx_hash,
    write_id: row.write_id,
    ...(row.error ? { error: row.error } : {}),
  };
}

/**
 * `POST /v1/wallet/confirmations` and `GET /v1/wallet/confirmations/{confirmation_id}` (HTTP Basic): a
 * client's backend asks its player to confirm a wallet operation in the wallet window, then reads the
 * outcome (a write that had not landed within the wait: its `write_status`, then its transaction). Only the
 * creating client sees a confirmation (another: 404 `confirmation_not_found`).
 */
export function walletConfirmationRoutes(services: Services): Router {
  const router = Router();
  mountEndpoint(router, services, ENDPOINTS.createWalletConfirmation, { chain: true }, async (input, { client }) => {
    await requireMayAsk(services, client!, input);
    const id = newConfirmationId();
    const expires = await insertConfirmation(services.db, {
      id,
      clientId: client!.client_id,
      userId: input.user_uuid,
      request: input.request,
      redirectUri: input.redirect_uri,
    });
    return {
      success: true as const,
      id,
      kind: input.request.kind,
      status: "pending" as const,
      expires_at: Math.floor(expires.getTime() / 1000),
      window_url: services.issuer + fillPath(ENDPOINTS.walletConfirmPage, { confirmation_id: id }),
    };
  });
  mountEndpoint(router, services, ENDPOINTS.getWalletConfirmation, { chain: true }, async ({ confirmation_id }, { client }) => {
    const row = await findConfirmation(services.db, confirmation_id);
    if (!row || row.client_id !== client!.client_id) throw new SlotgateServerError("confirmation_not_found");
    const current = await settleAbandonedApprove(services, row);
    return withWrite(services, current, confirmationView(current));
  });
  return router;
}
