import { readMnemonicBackup } from "@slotgate/chain-service";
import { PATHS } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import type { Router } from "express";
import type { Services } from "../platform/app/services.js";
import { runAsVerifiedUser } from "../chain-api/chain/caller-assertions.js";
import { chainOf } from "../chain-api/chain/chain-of.js";
import { proveRecovery, requestRecoveryCode } from "../chain-api/pin/recovery-proof.js";
import { jsonBody, parseInput } from "../platform/http/input.js";
import { type WindowLimits, windowPlayer } from "./window-session.js";

/** The words of a sealed backup, opened with the PIN hash and the share that sealed it (the chain service's PBKDF2 salt). */
function wordsOf(services: Services, sealed: string, pinHash: string, keyShareUser: string): Promise<string> {
  const salt = services.config.chain.service?.pinPbkdf2Salt;
  return readMnemonicBackup(sealed, pinHash, keyShareUser, salt === undefined ? {} : { salt });
}

/**
 * The page-started windows' posts (same origin, CSRF double-submit, the player of the browser session of
 * `client_id`): PIN set-up (`registerPin`; the new share and the words once, to the window), reset with the
 * words (`resetPin`; the new share), recovery with the mailbox code (`requestRecoveryCode`, then
 * `proveRecovery` and `recover`; the new share and the new words once). The same chain-service calls as
 * `/v1/pin/*`; the answers go to the window's own page only and are never stored here.
 *
 * @example
 * ```ts
 * keyActionRoutes(router, services, windowLimits(services));
 * ```
 */
export function keyActionRoutes(router: Router, services: Services, limits: WindowLimits): void {
  const noStore = { "Cache-Control": "no-store" };

  router.post(PATHS.walletPinSetup, limits.perIp, jsonBody, async (req, res) => {
    const body = parseInput(ENDPOINTS.walletPinSetup.input.body, req.body);
    const userUuid = Number(windowPlayer(services, req, body.csrf_token, body.client_id));
    await limits.forPlayer(req, res, String(userUuid));
    const chain = chainOf(services);
    const answer = await runAsVerifiedUser(userUuid, () => chain.registerPin({ user_uuid: userUuid, pin_hash: body.pin_hash, pin_salt: body.pin_salt }));
    const wallet = answer.data[0]!;
    const words = await wordsOf(services, wallet.mnemonic, body.pin_hash, wallet.key_share_user);
    res.set(noStore).json({ success: true, address: wallet.address, key_share_user: wallet.key_share_user, words });
  });

  router.post(PATHS.walletPinReset, limits.perIp, jsonBody, async (req, res) => {
    const body = parseInput(ENDPOINTS.walletPinReset.input.body, req.body);
    const userUuid = Number(windowPlayer(services, req, body.csrf_token, body.client_id));
    await limits.forPlayer(req, res, String(userUuid));
    const chain = chainOf(services);
    const answer = await runAsVerifiedUser(userUuid, () =>
      chain.resetPin({ user_uuid: userUuid, mnemonic: body.mnemonic, new_pin_hash: body.pin_hash, new_pin_salt: body.pin_salt }),
    );
    const wallet = answer.data[0]!;
    res.set(noStore).json({ success: true, address: wallet.address, key_share_user: wallet.key_share_user });
  });

  router.post(PATHS.walletRecoverCode, limits.perIp, jsonBody, async (req, res) => {
    const body = parseInput(ENDPOINTS.walletRecoverCode.input.body, req.body);
    const userUuid = Number(windowPlayer(services, req, body.csrf_token, body.client_id));
    await limits.forPlayer(req, res, String(userUuid));
    res.set(noStore).json(await requestRecoveryCode(services, { user_uuid: userUuid, pin_hash: body.pin_hash, pin_salt: body.pin_salt }));
  });

  router.post(PATHS.walletRecover, limits.perIp, jsonBody, async (req, res) => {
    const body = parseInput(ENDPOINTS.walletRecover.input.body, req.body);
    const userUuid = Number(windowPlayer(services, req, body.csrf_token, body.client_id));
    await limits.forPlayer(req, res, String(userUuid));
    const request = { user_uuid: userUuid, pin_hash: body.pin_hash, pin_salt: body.pin_salt };
    // The mailbox proof comes first; only a proven recovery reaches the chain service (as POST /v1/pin/recover).
    const proof = await proveRecovery(services, { ...request, recovery_id: body.recovery_id, code: body.code });
    const chain = chainOf(services);
    const answer = await runAsVerifiedUser(userUuid, () => chain.recover({ ...request, assertion: services.assertCaller(proof.user_uuid, "recover") }));
    const wallet = answer.data[0]!;
    const words = await wordsOf(services, wallet.mnemonic, body.pin_hash, wallet.key_share_user);
    res.set(noStore).json({ success: true, address: wallet.address, key_share_user: wallet.key_share_user, words });
  });
}
