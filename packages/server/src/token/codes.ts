import { createHash, randomBytes } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import type { Services } from "../app/services.js";
import { insertCode } from "../storage/codes.js";

/** SHA-256 (base64url) of an authorization code; only this is stored. */
export function hashCode(code: string): string {
  return createHash("sha256").update(code).digest("base64url");
}

/** Creates and stores a new single-use authorization code; returns the code. */
export async function issueCode(
  services: Services,
  kind: "oauth" | "meta",
  args: { clientId: string; userId: string; redirectUri: string; codeChallenge: string | null },
): Promise<string> {
  const code = randomBytes(32).toString("base64url");
  await insertCode(services.db, {
    codeHash: hashCode(code),
    kind,
    clientId: args.clientId,
    userId: args.userId,
    redirectUri: args.redirectUri,
    codeChallenge: args.codeChallenge,
    lifetimeSeconds: LIMITS.authorizationCodeLifetimeSeconds,
  });
  return code;
}

