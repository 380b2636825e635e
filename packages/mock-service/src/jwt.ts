import { LIMITS } from "@slotgate/protocol";
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair, jwtVerify } from "jose";
import { randomBase64url } from "./random.js";

/** Kinds of JWT the simulated service signs. */
export type TokenUse = "user_jwt" | "access_token" | "dev_user";

/** Claims of a verified token. */
export interface VerifiedToken {
  sub: string;
  client_id?: string;
  token_use: TokenUse;
  jti: string;
  exp: number;
  iat: number;
}

/** ES256 signing key pair of one simulated service, with its public JWK (`kid` set). */
export interface SigningKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
  kid: string;
}

/** Generates a fresh ES256 key pair. */
export async function createSigningKeys(): Promise<SigningKeys> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `mock-${randomBase64url(8)}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return { privateKey, publicKey, jwk, kid };
}

/** What to sign. */
export interface SignArgs {
  issuer: string;
  sub: string;
  token_use: TokenUse;
  client_id?: string;
  /** Epoch ms of issuance. */
  now: number;
  lifetimeSeconds: number;
}

/** Signs a token and returns it with its `jti`. */
export async function signToken(keys: SigningKeys, args: SignArgs): Promise<{ token: string; jti: string; exp: number }> {
  const jti = randomBase64url(16);
  const iat = Math.floor(args.now / 1000);
  const exp = iat + args.lifetimeSeconds;
  const claims: JWTPayload = { token_use: args.token_use, jti };
  if (args.client_id !== undefined) claims["client_id"] = args.client_id;
  if (args.token_use === "access_token" && args.client_id !== undefined) claims.aud = args.client_id;
  const header = { alg: "ES256", kid: keys.kid, ...(args.token_use === "access_token" ? { typ: "at+jwt" } : { typ: "JWT" }) };
  const token = await new SignJWT(claims)
    .setProtectedHeader(header)
    .setIssuer(args.issuer)
    .setSubject(args.sub)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(keys.privateKey);
  return { token, jti, exp };
}

/** Verifies signature, issuer and expiry (with the contract's clock skew); null when invalid. */
export async function verifyToken(keys: SigningKeys, token: string, issuer: string, now: number): Promise<VerifiedToken | null> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keys.publicKey, {
      issuer,
      algorithms: ["ES256"],
      currentDate: new Date(now),
      clockTolerance: LIMITS.clockSkewSeconds,
    });
    const use = payload["token_use"];
    if (use !== "user_jwt" && use !== "access_token" && use !== "dev_user") return null;
    if (use === "access_token" && protectedHeader.typ !== "at+jwt") return null;
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string") return null;
    if (typeof payload.exp !== "number" || typeof payload.iat !== "number") return null;
    const clientId = payload["client_id"];
    return {
      sub: payload.sub,
      token_use: use,
      jti: payload.jti,
      exp: payload.exp,
      iat: payload.iat,
      ...(typeof clientId === "string" ? { client_id: clientId } : {}),
    };
  } catch {
    return null;
  }
}
