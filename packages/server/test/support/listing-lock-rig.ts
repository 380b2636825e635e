import { randomBytes } from "node:crypto";
import { generateSigningKey } from "../../src/index.js";
import { type ExchangeCall, ExchangeChainDouble } from "./chain-double.js";
import { authorizeCode, call, exchange, registerClient } from "./flows.js";
import { startTestServer, type TestServer } from "./harness.js";

/** A user of the rig: its id and a bearer token minted by each instance (each verifies its own issuer). */
export interface RigUser {
  userId: string;
  tokens: [string, string];
}

/** Two server instances on one database (PGlite, or one PostgreSQL schema) with one chain double. */
export interface LockRig {
  servers: [TestServer, TestServer];
  chain: ExchangeChainDouble;
  clientId: string;
  cuid: string;
  /** Creates end users through the real code exchange on the first instance. */
  users(n: number): Promise<RigUser[]>;
  login(instance: 0 | 1, user: RigUser): ReturnType<typeof call>;
  logout(instance: 0 | 1, user: RigUser): ReturnType<typeof call>;
  /** Sends exchange_token_owner for `seller`'s slot to `buyer` (not awaited: the double holds it until settled). */
  sell(instance: 0 | 1, seller: RigUser, buyer: RigUser, state?: string): ReturnType<typeof call>;
  /** The next exchangeSlotOwner call the double receives. */
  nextCall(): Promise<ExchangeCall>;
  /** The seller's login_status row (status and hold), or null. */
  row(user: RigUser): Promise<{ status: string; transfer_hold_until: Date | null; transfer_hold_ref: string | null } | null>;
  close(): Promise<void>;
}

/**
 * Starts the listing lock's rig: two real servers on 127.0.0.1 sharing one database and one signing
 * key, a blockchain client that registered `cuid` (as the chain double says), and helpers for the
 * status and sale calls over real HTTP.
 */
export async function startLockRig(): Promise<LockRig> {
  const chain = new ExchangeChainDouble();
  const keys = [await generateSigningKey()];
  const a = await startTestServer({}, keys, { chain: chain.handle() });
  const b = await startTestServer({}, keys, { chain: chain.handle(), shareDatabaseOf: a });
  const servers: [TestServer, TestServer] = [a, b];
  const client = await registerClient(a.url, { blockchain: true });
  const cuid = `lock-${randomBytes(4).toString("hex")}`;
  chain.register(cuid, client.client_id);
  const waiting: Array<(c: ExchangeCall) => void> = [];
  const arrived: ExchangeCall[] = [];
  chain.onCall = (c) => {
    const w = waiting.shift();
    if (w) w(c);
    else arrived.push(c);
  };
  const status = (path: string) => (instance: 0 | 1, user: RigUser) =>
    call(servers[instance].url, "POST", path, { token: user.tokens[instance], body: { user_id: user.userId, client_id: client.client_id } });
  let states = 0;
  return {
    servers,
    chain,
    clientId: client.client_id,
    cuid,
    async users(n) {
      const made: RigUser[] = [];
      for (let i = 0; i < n; i += 1) {
        const { code } = await authorizeCode(a.url, client);
        const res = await exchange(a.url, client, code);
        const userId = String(res.json["user_id"]);
        const tokens = await Promise.all(servers.map(async (s) => (await s.slotgate.services.tokens.signUserJwt(userId, client.client_id)).token));
        made.push({ userId, tokens: tokens as [string, string] });
      }
      return made;
    },
    login: status("/v1/oauth/status/login"),
    logout: status("/v1/oauth/status/logout"),
    sell(instance, seller, buyer, state) {
      states += 1;
      return call(servers[instance].url, "POST", "/idex-platform/exchange_token_owner", {
        token: seller.tokens[instance],
        body: {
          state: state ?? `sale-${states}-${randomBytes(4).toString("hex")}`,
          cu_id: cuid,
          from_uuid: seller.userId,
          to_uuid: buyer.userId,
          meta_idx: 0,
          pin_hash: "11".repeat(32),
          key_share_user: "22".repeat(32),
        },
      });
    },
    nextCall() {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    async row(user) {
      const rows = await a.sql<{ status: string; transfer_hold_until: Date | null; transfer_hold_ref: string | null }>(
        "SELECT status, transfer_hold_until, transfer_hold_ref FROM login_status WHERE user_id = $1 AND client_id = $2",
        [user.userId, client.client_id],
      );
      return rows[0] ?? null;
    },
    async close() {
      await b.close();
      await a.close();
    },
  };
}
