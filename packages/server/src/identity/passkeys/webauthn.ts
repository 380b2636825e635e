import { BRAND } from "@slotgate/protocol";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Database } from "@slotgate/storage";
import { findPasskey, insertPasskey, listPasskeys, touchPasskey } from "./passkeys-store.js";

/**
 * User verification on every passkey ceremony: the authenticator must check who holds it (a PIN, a
 * fingerprint, a face) and say so (the UV flag), because a passkey alone signs the player in, with no
 * password beside it. Options ask for it (`userVerification: "required"`) and the server refuses a
 * response without it (`requireUserVerification`): a stolen or unlocked security key is not enough
 * (docs/decisions/identity.md).
 */
const PASSKEY_USER_VERIFICATION = "required";

/** Whether a host name can be a WebAuthn relying-party id (a domain, not an IP address). */
function isDomain(host: string): boolean {
  return !/^[0-9.]+$/.test(host) && !host.startsWith("[");
}

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: discoverable credentials registered after a
 * sign-in, then a sign-in with the passkey alone; both need user verification
 * ({@link PASSKEY_USER_VERIFICATION}). The relying party is the server's public origin
 * (`PUBLIC_URL`; rp id `PASSKEY_RP_ID` or its host name). On an IP-address origin (such as
 * `http://127.0.0.1:8080`) browsers refuse WebAuthn, so passkeys are off there.
 *
 * @example
 * ```ts
 * const passkeys = new Passkeys(db, "https://auth.example", null);
 * const options = await passkeys.authenticationOptions();
 * ```
 */
export class Passkeys {
  /** The relying-party id. */
  readonly rpId: string;
  /** The origin a browser's response must come from. */
  readonly origin: string;
  /** False on an IP-address origin. */
  readonly enabled: boolean;

  constructor(
    private readonly db: Database,
    issuer: string,
    rpId: string | null,
  ) {
    const url = new URL(issuer);
    this.rpId = rpId ?? url.hostname;
    this.origin = url.origin;
    this.enabled = isDomain(this.rpId);
  }

  /** Options for `navigator.credentials.create` for this account (its passkeys excluded). */
  async registrationOptions(user: { id: string; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await listPasskeys(this.db, user.id);
    return generateRegistrationOptions({
      rpName: BRAND.name,
      rpID: this.rpId,
      userName: user.email,
      userID: new TextEncoder().encode(`slotgate-user-${user.id}`),
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: PASSKEY_USER_VERIFICATION },
      timeout: 120_000,
    });
  }

  /** Verifies a registration and stores the passkey; false when it does not verify or is known already. */
  async register(userId: string, expectedChallenge: string, response: RegistrationResponseJSON): Promise<boolean> {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      requireUserVerification: true,
    }).catch(() => null);
    if (!result?.verified) return false;
    const { credential } = result.registrationInfo;
    return insertPasskey(this.db, {
      credential_id: credential.id,
      user_id: userId,
      public_key: Buffer.from(credential.publicKey).toString("base64url"),
      sign_count: credential.counter,
      transports: credential.transports ?? [],
    });
  }

  /** Options for `navigator.credentials.get` (any passkey of this site: discoverable credentials). */
  authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return generateAuthenticationOptions({ rpID: this.rpId, userVerification: PASSKEY_USER_VERIFICATION, timeout: 120_000 });
  }

  /** Verifies a sign-in; the account's id, or null when the passkey is unknown or the response does not verify. */
  async authenticate(expectedChallenge: string, response: AuthenticationResponseJSON): Promise<string | null> {
    const passkey = typeof response?.id === "string" && response.id.length <= 1024 ? await findPasskey(this.db, response.id) : null;
    if (!passkey) return null;
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
        counter: passkey.sign_count,
        transports: passkey.transports as never,
      },
    }).catch(() => null);
    if (!result?.verified) return null;
    await touchPasskey(this.db, passkey.credential_id, result.authenticationInfo.newCounter);
    return passkey.user_id;
  }
}
