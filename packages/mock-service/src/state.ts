import type { AuthorizationStatus, ClientApplication } from "@slotgate/protocol";
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
}

/** An end user. */
export interface EndUserRecord {
  user_id: string;
  email: string;
  nickname: string;
  password: PasswordHash;
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

/** A login-status record of one (user, client) pair. */
export interface StatusRecord {
  status: AuthorizationStatus;
  timestamp: string;
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

/** A slot wallet: one per (client, user). */
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
  /** Keyed by `${user_id}|${client_id}`. */
  readonly statuses = new Map<string, StatusRecord>();
  /** Keyed by cuid. */
  readonly providers = new Map<string, ProviderRecord>();
  /** Keyed by lowercase slot address. */
  readonly slots = new Map<string, SlotRecord>();
  /** Spend-message nonces already accepted. */
  readonly acceptedNonces = new Set<string>();
  /** XOTN (wei) received by the platform treasury (15% of purchases). */
  platformTreasury = 0n;
  /** XOTN (wei) received per provider `owner_addr` (85% of purchases), lowercase keys. */
  readonly providerRevenue = new Map<string, bigint>();
  /** Content tokens released per provider `owner_addr`, lowercase keys. */
  readonly released = new Map<string, bigint>();
  /** Every authorize callback attempted, in order. */
  readonly callbacks: CallbackDelivery[] = [];
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

  /** Status record key. */
  static statusKey(userId: string, clientId: string): string {
    return `${userId}|${clientId}`;
  }
}
