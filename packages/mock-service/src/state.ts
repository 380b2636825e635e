import type { RememberedAnswer } from "./http/idempotency.js";
import type { AuthorizationStatus, ClientApplication, ClientAuditEntry, WalletConfirmationRequest } from "@slotgate/protocol";
import type { PasswordHash } from "./passwords.js";
import { randomAddress } from "./random.js";

/** A developer account. */
export interface DevUserRecord {
  uuid: string;
  email: string;
  password: PasswordHash;
}

/** A registered client application (with its secret and AES key, which the HTTP API never lists). */
export interface ClientRecord extends ClientApplication {
  client_secret: string;
  owner_uuid: string;
  /** AES-256-CTR key and IV, issued by the client's first provider registration. */
  aes?: { key: string; iv: string };
  /** The secret before the last rotation and until when (epoch ms) it still works. */
  previous_secret?: { secret: string; until: number };
  /** Deleted in the developer center: unknown everywhere, never listed again. */
  deleted?: boolean;
  /** Tokens of this client issued at or before this unix second are revoked (disabled or deleted). */
  revoked_before?: number;
  /** The developer center's audit list, oldest first. */
  audit?: ClientAuditEntry[];
  /** The brand the sign-in pages show (each absent when not set); the logo with its bytes and SHA-256 (hex). */
  brand?: { display_name?: string; accent_color?: string; logo?: { content_type: string; bytes: Uint8Array; sha256: string } };
}

/** A browser's service session for one client: set by an interactive approval, read by `prompt=none`. */
export interface BrowserSessionRecord {
  client_id: string;
  user_id: string;
  /** When the user signed in interactively (epoch ms); the session never outlives it by more than 90 days. */
  auth_time: number;
  /** When it ends (epoch ms): 30 days after its last use, at most 90 after `auth_time`. */
  expires_at: number;
}

/** An end user. */
export interface EndUserRecord {
  user_id: string;
  email: string;
  nickname: string;
  password: PasswordHash;
}

/** A mail the simulated service "sent" (it keeps them instead). */
export interface SentMail {
  to: string;
  subject: string;
  text: string;
}

/** A sign-up waiting for its emailed code (single use, attempt-limited, bound to the browser's CSRF cookie). */
export interface SignupChallenge {
  email: string;
  password: PasswordHash;
  code: string;
  binding: string;
  attempts: number;
  used: boolean;
  expiresAt: number;
}

/** An authorization code (single use, bound to client, redirect URI and PKCE challenge). */
export interface CodeRecord {
  code: string;
  client_id: string;
  redirect_uri: string;
  user_id: string;
  code_challenge?: string;
  /** Epoch milliseconds. */
  expires_at: number;
  used: boolean;
  /** `jti`s of the access tokens issued from this code (revoked when the code is replayed). */
  issued_jtis: string[];
}

/** A device authorization (RFC 8628). */
export interface DeviceRecord {
  device_code: string;
  /** Normalised: 8 letters, no dash. */
  user_code: string;
  client_id: string;
  status: "pending" | "approved" | "denied" | "redeemed";
  user_id?: string;
  interval: number;
  /** Epoch milliseconds. */
  last_polled_at?: number;
  expires_at: number;
}

/** A refresh-token family: one sign-in of a user at a client that opted in to refresh tokens. */
export interface RefreshFamilyRecord {
  family_id: string;
  client_id: string;
  user_id: string;
  ended: boolean;
  /** `jti`s of every access token of the family (revoked when it ends by revocation or reuse). */
  access_jtis: string[];
}

/** One refresh token of a family. */
export interface RefreshTokenRecord {
  family_id: string;
  /** Epoch milliseconds of the first use. */
  used_at?: number;
  /** The token issued for it at its first use. */
  successor?: string;
  expires_at: number;
}

/** A login-status record of one (user, client) pair. */
export interface StatusRecord {
  status: AuthorizationStatus;
  timestamp: string;
}

/** A wallet confirmation a client's backend created; the simulated window decides it. */
export interface WalletConfirmationRecord {
  id: string;
  client_id: string;
  user_id: string;
  request: WalletConfirmationRequest;
  redirect_uri: string;
  /** `pending` until the window decides; expiry is read from `expires_at`. */
  status: "pending" | "approved" | "denied" | "failed";
  tx_hash: string | null;
  write_id: string | null;
  error?: { code: string; message: string };
  /** Epoch milliseconds. */
  expires_at: number;
}

/** A content-token provider registration. */
export interface ProviderRecord {
  client_id: string;
  cuid: string;
  release_per: number;
  owner_addr: string;
  /** The platform operator's `_cuid_releaseTokenEnabled[cuid]` flag. */
  release_enabled: boolean;
}

/** Content-token balances of a slot under one cuid (wei strings on the wire, bigint here). */
export interface SlotBalance {
  balance: bigint;
  used: bigint;
  /** `used` already paid out by release. */
  settled: bigint;
}

/**
 * A simulated slot wallet (its address is random, never a CREATE2 result): one per (client, user) for a
 * blockchain client without a cuid, and one per opened slot `(cuid, meta_idx)` (see {@link CuidSlotRecord}).
 */
export interface SlotRecord {
  address: string;
  client_id: string;
  user_id: string;
  /** XOTN (wei) the slot wallet holds and has approved for purchases. */
  xotn: bigint;
  tr_cnt: number;
  last_cuid?: string;
  balances: Map<string, SlotBalance>;
}

/**
 * A slot `(cuid, meta_idx)` (docs/decisions/marketplace.md): one slot wallet for all its life, an owner
 * (end user) that a sale changes, and whether it is the owner's ACTIVE slot of the cuid.
 */
export interface CuidSlotRecord {
  cuid: string;
  meta_idx: number;
  /** Lowercase address of its slot wallet (a key of `MockState.slots`). */
  wallet: string;
  /** The owner's end-user id. */
  user_id: string;
  active: boolean;
  /** Owner changes (sales). */
  tr_cnt: number;
}

/** One server-to-server authorize callback the service attempted. */
export interface CallbackDelivery {
  url: string;
  state: string;
  attempts: number;
  /** HTTP status of the last attempt, when one answered. */
  status?: number;
  /** Network error of the last attempt, when none answered. */
  error?: string;
  delivered: boolean;
}

/**
 * The in-memory state of one simulated service. Exposed as `mock.state` so tests can look
 * inside (e.g. count issued codes, read a slot's balances); mutate it only through the HTTP API
 * or `mock.operator`.
 *
 * @example
 * ```ts
 * const mock = createMockService();
 * await mock.ready();
 * mock.state.slots.get(FIXTURES.slot.address.toLowerCase())?.xotn; // 1000000000000000000000n
 * ```
 */
export class MockState {
  readonly devUsers = new Map<string, DevUserRecord>();
  readonly clients = new Map<string, ClientRecord>();
  readonly endUsers = new Map<string, EndUserRecord>();
  readonly codes = new Map<string, CodeRecord>();
  readonly revokedJtis = new Set<string>();
  /** Device authorizations by device code. */
  readonly devices = new Map<string, DeviceRecord>();
  /** Refresh tokens by token. */
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly refreshFamilies = new Map<string, RefreshFamilyRecord>();
  /** Refresh family of an access token, by `jti`. */
  readonly familyOfJti = new Map<string, string>();
  /** Keyed by `${user_id}|${client_id}`. */
  readonly statuses = new Map<string, StatusRecord>();
  /** Keyed by cuid. */
  readonly providers = new Map<string, ProviderRecord>();
  /** Keyed by lowercase slot address. */
  readonly slots = new Map<string, SlotRecord>();
  /** Slots `(cuid, meta_idx)`, keyed by `${cuid}|${meta_idx}`. */
  readonly cuidSlots = new Map<string, CuidSlotRecord>();
  /** The next `meta_idx` per cuid. */
  readonly slotCounters = new Map<string, number>();
  /** Simulated user wallets (the owner address a slot's registry entry names), by user id. */
  readonly userWallets = new Map<string, string>();
  /** `state` tokens of slot exchanges already accepted, as `${from_uuid}|${state}`. */
  readonly exchangeStates = new Set<string>();
  /** Spend-message nonces already accepted. */
  readonly acceptedNonces = new Set<string>();
  /** Answers of requests sent with an `Idempotency-Key`, by `${caller}|${key}`. */
  readonly idempotency = new Map<string, RememberedAnswer>();
  /** XOTN (wei) received by the platform treasury (15% of purchases). */
  platformTreasury = 0n;
  /** XOTN (wei) received per provider `owner_addr` (85% of purchases), lowercase keys. */
  readonly providerRevenue = new Map<string, bigint>();
  /** Content tokens released per provider `owner_addr`, lowercase keys. */
  readonly released = new Map<string, bigint>();
  /** Every mail sent (sign-up codes), oldest first. */
  readonly mails: SentMail[] = [];
  /** Sign-ups waiting for their emailed code, by challenge id. */
  readonly signupChallenges = new Map<string, SignupChallenge>();
  /** Browser sessions (the cookie silent renewal reads), by cookie value. */
  readonly browserSessions = new Map<string, BrowserSessionRecord>();
  /** Every authorize callback attempted, in order. */
  readonly callbacks: CallbackDelivery[] = [];
  /** Wallet confirmations (`POST /v1/wallet/confirmations`), by id. */
  readonly walletConfirmations = new Map<string, WalletConfirmationRecord>();
  private nextUserId = 1001;

  /** Allocates the next end-user id (decimal string of a positive integer). */
  allocateUserId(): string {
    const id = String(this.nextUserId);
    this.nextUserId += 1;
    return id;
  }

  /** Makes sure later allocations do not collide with a seeded id. */
  reserveUserId(userId: string): void {
    this.nextUserId = Math.max(this.nextUserId, Number(userId) + 1);
  }

  findDevUserByEmail(email: string): DevUserRecord | undefined {
    const wanted = email.toLowerCase();
    for (const dev of this.devUsers.values()) if (dev.email.toLowerCase() === wanted) return dev;
    return undefined;
  }

  findEndUserByEmail(email: string): EndUserRecord | undefined {
    const wanted = email.toLowerCase();
    for (const user of this.endUsers.values()) if (user.email.toLowerCase() === wanted) return user;
    return undefined;
  }

  /** The slot wallet of a user for a client, created on first use (the real service computes it with CREATE2). */
  slotFor(clientId: string, userId: string, address?: string): SlotRecord {
    for (const slot of this.slots.values()) {
      if (slot.client_id === clientId && slot.user_id === userId) return slot;
    }
    const slot: SlotRecord = {
      address: address ?? randomAddress(),
      client_id: clientId,
      user_id: userId,
      xotn: 0n,
      tr_cnt: 0,
      balances: new Map(),
    };
    this.slots.set(slot.address.toLowerCase(), slot);
    return slot;
  }

  /** A new simulated slot wallet (random address) of a user, for a slot of a cuid `clientId` registered. */
  addWallet(clientId: string, userId: string): SlotRecord {
    const slot: SlotRecord = { address: randomAddress(), client_id: clientId, user_id: userId, xotn: 0n, tr_cnt: 0, balances: new Map() };
    this.slots.set(slot.address.toLowerCase(), slot);
    return slot;
  }

  /** The simulated user wallet of an end user (random, made on first need). */
  userWalletOf(userId: string): string {
    let wallet = this.userWallets.get(userId);
    if (wallet === undefined) {
      wallet = randomAddress();
      this.userWallets.set(userId, wallet);
    }
    return wallet;
  }

  /** Status record key. */
  static statusKey(userId: string, clientId: string): string {
    return `${userId}|${clientId}`;
  }
}
