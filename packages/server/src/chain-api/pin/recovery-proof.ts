import type { PinRecoverCodeResponse, PinRecoverRequest, PinRecoverWithCodeRequest } from "@slotgate/protocol";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { bindingOf } from "../../identity/mailbox-proof/challenges.js";
import { findEndUserById } from "../../identity/users/end-users-store.js";

/**
 * What the server established before it asks the chain service to rotate the owner key (spec 4.10
 * rule 8, "identity is first verified by email"): whoever sent this request read the one-time code
 * mailed to the account's verified address for exactly this user and new PIN. The route then signs a
 * single-use caller assertion for `recover` naming the user, the chain service's only evidence.
 */
export interface RecoveryProof {
  user_uuid: number;
  method: "email_otp";
  /** The mailbox challenge that was used up (its `recovery_id`). */
  challenge_id: string;
  /** The verified address the code went to. */
  email: string;
  /** When the code was checked (ISO 8601). */
  verified_at: string;
}

/** What a recovery code is bound to: the user and the new PIN (hash and salt). */
function recoveryBinding(request: PinRecoverRequest): string {
  return bindingOf("recover", String(request.user_uuid), request.pin_hash.toLowerCase(), request.pin_salt.toLowerCase());
}

/**
 * Step 1 of recovery: mails a one-time code to the account's verified address, bound to this
 * user and new PIN. 403 email_not_verified when the account has no verified mailbox.
 *
 * @example
 * ```ts
 * const sent = await requestRecoveryCode(services, { user_uuid: 7, pin_hash, pin_salt });
 * sent.recovery_id; // send back with the code to POST /v1/pin/recover
 * ```
 */
export async function requestRecoveryCode(services: Services, request: PinRecoverRequest): Promise<PinRecoverCodeResponse> {
  const user = await findEndUserById(services.db, String(request.user_uuid));
  if (!user?.email_verified_at) {
    throw new SlotgateServerError("email_not_verified", {
      message: "Recovery needs a verified email address on the account; sign in once and confirm your email first.",
    });
  }
  const sent = await services.mailbox.send({ purpose: "recover", email: user.email, userId: user.id, binding: recoveryBinding(request) });
  return { success: true, recovery_id: sent.id, expires_in: sent.expiresIn, sent_to: sent.sentTo };
}

/**
 * Step 2 of recovery: checks the emailed code against the recovery it was sent for (same user,
 * same new PIN), once. otp_invalid / otp_expired / otp_locked otherwise.
 *
 * @example
 * ```ts
 * const proof = await proveRecovery(services, body);
 * await chain.recover({ user_uuid: proof.user_uuid, pin_hash, pin_salt, assertion: services.assertCaller(proof.user_uuid, "recover") });
 * ```
 */
export async function proveRecovery(services: Services, request: PinRecoverWithCodeRequest): Promise<RecoveryProof> {
  const proven = await services.mailbox.prove({ id: request.recovery_id, code: request.code, purposes: ["recover"], binding: recoveryBinding(request) });
  if (proven.user_id !== String(request.user_uuid)) throw new SlotgateServerError("otp_expired");
  return { user_uuid: request.user_uuid, method: "email_otp", challenge_id: proven.id, email: proven.email, verified_at: new Date().toISOString() };
}
