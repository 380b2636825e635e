import { LIMITS } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { HttpError } from "./http/http-error.js";
import { randomBase64url, sha256Base64url } from "./random.js";
import { endFamilyOf } from "./refresh-tokens.js";
import type { CodeRecord } from "./state.js";

/** Issues a single-use authorization code bound to client, redirect URI and optional PKCE challenge. */
export function issueCode(ctx: MockContext, args: { client_id: string; redirect_uri: string; user_id: string; code_challenge?: string }): CodeRecord {
  const record: CodeRecord = {
    code: randomBase64url(32),
    client_id: args.client_id,
    redirect_uri: args.redirect_uri,
    user_id: args.user_id,
    ...(args.code_challenge !== undefined ? { code_challenge: args.code_challenge } : {}),
    expires_at: ctx.now() + LIMITS.authorizationCodeLifetimeSeconds * 1000,
    used: false,
    issued_jtis: [],
  };
  ctx.state.codes.set(record.code, record);
  return record;
}

/**
 * Redeems a code: unknown, expired, used, or bound to another client / redirect URI, or a PKCE failure,
 * throws 400 invalid_grant. A replay revokes every token issued from the code.
 */
export async function redeemCode(
  ctx: MockContext,
  args: { code: string; client_id: string; redirect_uri: string; code_verifier?: string },
): Promise<CodeRecord> {
  const record = ctx.state.codes.get(args.code);
  if (!record) throw new HttpError("invalid_grant");
  if (record.used && !ctx.faults.reuseCodes) {
    for (const jti of record.issued_jtis) {
      ctx.state.revokedJtis.add(jti);
      endFamilyOf(ctx, jti, true);
    }
    throw new HttpError("invalid_grant");
  }
  if (record.client_id !== args.client_id || record.redirect_uri !== args.redirect_uri) throw new HttpError("invalid_grant");
  if (ctx.now() > record.expires_at) throw new HttpError("invalid_grant");
  if (ctx.faults.skipPkce) {
    // deliberately broken: no PKCE check
  } else if (record.code_challenge !== undefined) {
    if (args.code_verifier === undefined) throw new HttpError("invalid_grant", { message: "code_verifier is required for this code." });
    if ((await sha256Base64url(args.code_verifier)) !== record.code_challenge) {
      throw new HttpError("invalid_grant", { message: "code_verifier does not match the code_challenge." });
    }
  } else if (args.code_verifier !== undefined) {
    throw new HttpError("invalid_grant", { message: "This code was issued without a code_challenge; do not send code_verifier." });
  }
  record.used = true;
  return record;
}
