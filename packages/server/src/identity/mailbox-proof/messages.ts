import { BRAND, LIMITS } from "@slotgate/protocol";
import type { MailMessage } from "../mail/mailer.js";
import type { ChallengePurpose } from "./mailbox-challenges-store.js";

const minutes = Math.round(LIMITS.otpLifetimeSeconds / 60);

/** The email carrying a one-time code, worded for what it proves. `detail` names the identity provider when linking. */
export function codeMail(purpose: ChallengePurpose, to: string, code: string, detail?: string): MailMessage {
  const expiry = `The code expires in ${minutes} minutes and works once.`;
  switch (purpose) {
    case "signup":
      return {
        to,
        subject: `Confirm your email for ${BRAND.name}`,
        text: `Your ${BRAND.name} sign-up code is ${code}\n\n${expiry}\nIf you did not try to create an account, ignore this email: no account is created without the code.\n`,
      };
    case "verify":
      return {
        to,
        subject: `Confirm your email for ${BRAND.name}`,
        text: `Your ${BRAND.name} email confirmation code is ${code}\n\n${expiry}\nIf you did not just sign in, change your password.\n`,
      };
    case "link":
      return {
        to,
        subject: `Link ${detail ?? "an identity provider"} to your ${BRAND.name} account`,
        text: `Someone signed in with ${detail ?? "an identity provider"} and asked to link it to the ${BRAND.name} account of this address.\nTo link it, enter the code ${code}\n\n${expiry}\nIf it was not you, ignore this email: nothing is linked without the code.\n`,
      };
    case "recover":
      return {
        to,
        subject: `Your ${BRAND.name} wallet recovery code`,
        text: `Your ${BRAND.name} wallet recovery code is ${code}\n\nIt sets a new PIN and a new owner key for your wallet. ${expiry}\nIf you did not ask to recover your wallet, do not share the code with anyone and change your password.\n`,
      };
  }
}

/** An address as shown back to the user: `p•••@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}
