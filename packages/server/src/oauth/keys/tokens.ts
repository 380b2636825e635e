import { randomUUID } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import { decodeProtectedHeader, errors as joseErrors, type JWTPayload, jwtVerify } from "jose";
import { SlotgateServerError } from "../../platform/http/errors.js";
import type { KeyStore } from "./key-store.js";
import type { RevocationList } from "./revocation-list.js";
import { CALLER_ASSERTION_TYPE } from "@slotgate/chain-service";
import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import type { JWK } from "jose";

/** Claims of a verified end-user bearer token. */
export interface BearerClaims {
  sub: string;
  client_id: string;
  token_use: "user_jwt" | "access_token";
  jti: string;
  exp: number;
  /** Refresh-token family (session) of an access token from a client with refresh tokens. */
  sid?: string;
  /** Issued at (unix seconds); tokens of a disabled client issued up to then are revoked. */
  iat?: number;
}

/** A freshly signed token. */
export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

const DEV_TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
const DEV_AUDIENCE = "slotgate-developer-center";
const CACHE_LIMIT = 50_000;

/** A new random token id (122 random bits; `randomUUID` draws from a cached entropy pool). */
export function newJti(): string {
  return randomUUID();
}

/**
 * Signs and verifies the service's JWTs (ES256, `kid` header). Verification results of bearer
 * tokens are cached by token string until expiry; revocation is checked on every call against
 * the in-memory {@link RevocationList}, so a revoked token fails at once.
 */
export class TokenService {
  private readonly cache = new Map<string, BearerClaims>();

  constructor(
    private readonly keys: KeyStore,
    private readonly issuer: string,
    private readonly revocations: RevocationList,
  ) {}

  /**
   * Signs the 7-day user JWT of the popup / loopback login, the device grant and a public client's code
   * exchange. `issued` presets its jti and expiry (the code exchange records them with the code first).
   */
  async signUserJwt(userId: string, clientId: string, issued?: { jti: string; expiresAt: Date }): Promise<IssuedToken> {
    const jti = issued?.jti ?? newJti();
    const exp = issued ? Math.floor(issued.expiresAt.getTime() / 1000) : Math.floor(Date.now() / 1000) + LIMITS.userJwtLifetimeSeconds;
    const iat = exp - LIMITS.userJwtLifetimeSeconds;
    const token = this.keys.sign(
      { alg: "ES256", kid: this.keys.activeKid, typ: "JWT" },
      { iss: this.issuer, sub: userId, client_id: clientId, token_use: "user_jwt", jti, iat, exp },
    );
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Signs an access token (RFC 9068 `at+jwt`) with a pre-chosen jti and expiry. `sid` names the
   * refresh-token family the token belongs to: ending the family revokes every token that carries it.
   */
  async signAccessToken(userId: string, clientId: string, jti: string, expiresAt: Date, sid?: string): Promise<string> {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return this.keys.sign(
      { alg: "ES256", kid: this.keys.activeKid, typ: "at+jwt" },
      {
        iss: this.issuer,
        sub: userId,
        aud: clientId,
        client_id: clientId,
        token_use: "access_token",
        jti,
        iat: exp - LIMITS.accessTokenLifetimeSeconds,
        exp,
        ...(sid ? { sid } : {}),
      },
    );
  }

  /** Signs a developer-center session token. */
  async signDevToken(devUuid: string): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return this.keys.sign(
      { alg: "ES256", kid: this.keys.activeKid, typ: "JWT" },
      { iss: this.issuer, sub: devUuid, aud: DEV_AUDIENCE, token_use: "dev_user", jti: newJti(), iat, exp: iat + DEV_TOKEN_LIFETIME_SECONDS },
    );
  }

  /** Verifies a developer-center token; returns the developer's uuid. Throws 401 invalid_token. */
  async verifyDevToken(token: string): Promise<string> {
    const payload = await this.verify(token, DEV_AUDIENCE);
    if (payload["token_use"] !== "dev_user" || typeof payload.sub !== "string") throw invalidToken();
    return payload.sub;
  }

  /**
   * Verifies an end-user bearer token (user JWT or access token): signature, issuer, expiry
   * (30 s skew), kind and revocation. Throws 401 invalid_token.
   */
  async verifyBearer(token: string): Promise<BearerClaims> {
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.exp + LIMITS.clockSkewSeconds < Date.now() / 1000) {
        this.cache.delete(token);
        throw invalidToken();
      }
      if (this.isRevoked(cached)) throw invalidToken();
      return cached;
    }
    const payload = await this.verify(token, undefined);
    const use = payload["token_use"];
    const clientId = payload["client_id"];
    if (
      (use !== "user_jwt" && use !== "access_token") ||
      typeof payload.sub !== "string" ||
      typeof clientId !== "string" ||
      typeof payload.jti !== "string" ||
      typeof payload.exp !== "number"
    ) {
      throw invalidToken();
    }
    if (use === "access_token" && payload.aud !== clientId) throw invalidToken();
    const claims: BearerClaims = { sub: payload.sub, client_id: clientId, token_use: use, jti: payload.jti, exp: payload.exp };
    if (typeof payload["sid"] === "string") claims.sid = payload["sid"];
    if (typeof payload.iat === "number") claims.iat = payload.iat;
    if (this.isRevoked(claims)) throw invalidToken();
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(token, claims);
    return claims;
  }

  /**
   * A token is revoked by its own jti, for refresh-token sessions by its family (`sid`), or by its
   * client having been disabled or deleted after it was issued.
   */
  private isRevoked(claims: BearerClaims): boolean {
    if (this.revocations.has(claims.jti) || (claims.sid !== undefined && this.revocations.has(claims.sid))) return true;
    const cutoff = this.revocations.clientCutoff(claims.client_id);
    return cutoff !== undefined && (claims.iat ?? 0) <= cutoff;
  }

  private async verify(token: string, audience: string | undefined): Promise<JWTPayload> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw invalidToken();
    }
    const key = kid ? this.keys.publicKey(kid) : undefined;
    if (!key) throw invalidToken();
    try {
      const { payload, protectedHeader } = await jwtVerify(token, key, {
        issuer: this.issuer,
        algorithms: ["ES256"],
        clockTolerance: LIMITS.clockSkewSeconds,
        ...(audience ? { audience } : {}),
      });
      if (protectedHeader.typ === "at+jwt" && payload["token_use"] !== "access_token") throw invalidToken();
      // A caller assertion for the chain service is the front service's word to it, never a bearer token.
      if (protectedHeader.typ === CALLER_ASSERTION_TYPE) throw invalidToken();
      if (audience === undefined && payload["token_use"] === "dev_user") throw invalidToken();
      return payload;
    } catch (error) {
      if (error instanceof SlotgateServerError) throw error;
      if (error instanceof joseErrors.JOSEError) throw invalidToken();
      throw error;
    }
  }
}

/** 401 invalid_token with the RFC 6750 challenge. */
function invalidToken(message?: string): SlotgateServerError {
  return new SlotgateServerError("invalid_token", {
    ...(message ? { message } : {}),
    headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
  });
}

/** Extracts the bearer token of an Authorization header; throws 401 invalid_token when absent. */
export function bearerFrom(header: string | undefined): string {
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header ?? "");
  if (!match) throw invalidToken("Send Authorization: Bearer <token>.");
  return match[1]!;
}

/** Signs compact JWS (ES256) synchronously. */
export type JwtSigner = (header: Record<string, unknown>, payload: Record<string, unknown>) => string;

/** Bytes of each of r and s in a P-256 signature. */
const P256_FIELD_BYTES = 32;

function notDer(): Error {
  return new Error("not a DER ECDSA P-256 signature");
}

/**
 * Turns a DER ECDSA signature (`SEQUENCE { r INTEGER, s INTEGER }`, what OpenSSL produces) into the
 * JWS form of RFC 7518 section 3.4: r then s, each left-padded to 32 bytes. Node's own
 * `dsaEncoding: "ieee-p1363"` does the same, but on Node 24 (OpenSSL 3.5) it doubles the cost of a
 * signature (33.7 against 16.8 µs on this machine; docs/decisions/server.md), so the signer asks for DER.
 *
 * @example
 * ```ts
 * const jws = derToP1363(sign("sha256", data, key)); // 64 bytes
 * ```
 */
export function derToP1363(der: Uint8Array): Buffer {
  // A P-256 signature is at most 72 bytes, so every DER length here is one byte (short form).
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) throw notDer();
  const out = Buffer.alloc(2 * P256_FIELD_BYTES);
  let offset = 2;
  for (let i = 0; i < 2; i++) {
    const length = der[offset + 1]!;
    if (der[offset] !== 0x02 || length === 0 || offset + 2 + length > der.length) throw notDer();
    let start = offset + 2;
    let bytes = length;
    while (bytes > P256_FIELD_BYTES && der[start] === 0) {
      start++;
      bytes--;
    }
    if (bytes > P256_FIELD_BYTES) throw notDer();
    out.set(der.subarray(start, start + bytes), (i + 1) * P256_FIELD_BYTES - bytes);
    offset = start + bytes;
  }
  if (offset !== der.length) throw notDer();
  return out;
}

/**
 * An ES256 compact-JWS signer over node:crypto (OpenSSL, synchronous). The token endpoint signs
 * one JWT per request; node:crypto's P-256 signing is several times cheaper than a WebCrypto
 * round trip through the thread pool. Tokens are ordinary JWS: jose verifies them (tests do).
 *
 * @example
 * ```ts
 * const signJwt = createEs256Signer(privateJwk);
 * const token = signJwt({ alg: "ES256", kid }, { sub: "1" });
 * ```
 */
export function createEs256Signer(privateJwk: JWK): JwtSigner {
  const key: KeyObject = createPrivateKey({ key: privateJwk as never, format: "jwk" });
  return (header, payload) => {
    const input = `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
    const signature = derToP1363(sign("sha256", Buffer.from(input), key));
    return `${input}.${signature.toString("base64url")}`;
  };
}
