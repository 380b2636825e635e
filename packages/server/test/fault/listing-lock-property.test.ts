import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PATHS } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import express, { Router } from "express";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "../../src/platform/http/error-handler.js";
import { mountEndpoint } from "../../src/platform/http/mount-endpoint.js";
import type { ExchangeCall, ExchangeOutcome } from "../support/chain-double.js";
import { call } from "../support/flows.js";
import { TEST_DB } from "../support/harness.js";
import { type LockRig, type RigUser, startLockRig } from "../support/listing-lock-rig.js";

/**
 * The listing lock's property (docs/decisions/marketplace.md), on TWO server instances sharing one
 * PostgreSQL schema, over real HTTP on 127.0.0.1: random interleavings of the seller's status login and
 * logout (on either instance, awaited or left in flight), a marketplace-like view fed by the login-status
 * webhooks (the outbox rows, delivered late, twice or out of order; deduplicated by event id, newest
 * timestamp wins) that lists the slot when it believes the seller is logged out and withdraws it on a
 * `logged_in`, buyers who buy a listed slot (exchange_token_owner on either instance), and the chain
 * settling each sale when the model says (answer, 202 pending then confirmed or failed, refused, broken).
 *
 * Asserted, on the service's own linearization of the seller's login-status row (a test trigger copies
 * every row version, in row-lock order, into `lock_history`; the chain double writes a marker there when
 * a sale reaches it and when the sale's write settles):
 *   1. no sale reaches the chain (is ACCEPTED) while the seller's row says logged_in, and no row version
 *      between a sale's acceptance and its settlement says logged_in;
 *   2. no row version says logged_in while an unexpired transfer hold stands on it.
 *
 * The chain is a double at the ChainService boundary: the property is about the server's lock (one
 * statement on the row, the batched status writes that skip held rows, the hold's hand-over to a pending
 * write), and a real chain would add nothing to it but seconds per case: 10,000 cases need each case to
 * cost milliseconds. What the chain does when a sale's write lands is the chain service's own suite's.
 *
 * The fault switch: the same model against the exchange route as it was without the lock (the chain
 * route alone, served from the same instance's services) must find a counterexample.
 *
 * Cases: 10,000 with CI=true (about 2 minutes on the CI machine, measured: see the report); 1,000
 * locally unless LISTING_LOCK_RUNS says otherwise.
 */
const CI = process.env["CI"] === "true" || process.env["CI"] === "1";
const RUNS = Number(process.env["LISTING_LOCK_RUNS"] ?? (CI ? 10_000 : 1_000));

let rig: LockRig;
let seller: RigUser;
let buyer: RigUser;
/** The exchange route without the lock, one per instance (the fault switch). */
const unlocked: Server[] = [];
const unlockedUrls: string[] = [];

type Command =
  | { kind: "login" | "logout"; instance: 0 | 1; wait: boolean }
  | { kind: "deliver"; pick: number }
  | { kind: "list" }
  | { kind: "buy"; instance: 0 | 1 }
  | { kind: "settle"; pick: number; outcome: ExchangeOutcome }
  | { kind: "land"; pick: number; status: "confirmed" | "failed" }
  | { kind: "await"; pick: number };

const instance = fc.constantFrom<0 | 1>(0, 1);
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom<"login" | "logout">("login", "logout"), instance, wait: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant<"deliver">("deliver"), pick: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant<"list">("list") }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant<"buy">("buy"), instance }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant<"settle">("settle"),
      pick: fc.nat(3),
      outcome: fc.constantFrom<ExchangeOutcome>({ kind: "answer" }, { kind: "pending" }, { kind: "refused", code: "replayed_message" }, { kind: "broken" }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant<"land">("land"), pick: fc.nat(3), status: fc.constantFrom<"confirmed" | "failed">("confirmed", "failed") }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant<"await">("await"), pick: fc.nat(7) }) },
);

interface HistoryRow {
  seq: string;
  kind: "row" | "accepted" | "settled";
  status: string | null;
  held: boolean;
  ref: string | null;
}

/** The marketplace-like view: newest status of the seller by webhook timestamp, deduplicated by event id. */
class MarketView {
  private seen = new Set<string>();
  private newest: { ts: string; id: number; status: string } | null = null;
  listed = false;
  deliver(event: { id: string; status: string; ts: string }): void {
    if (this.seen.has(event.id)) return;
    this.seen.add(event.id);
    const id = Number(event.id);
    if (this.newest && (this.newest.ts > event.ts || (this.newest.ts === event.ts && this.newest.id > id))) return;
    this.newest = { ts: event.ts, id, status: event.status };
    if (event.status === "logged_in") this.listed = false; // a logged_in webhook withdraws the listing
  }
  get believesLoggedOut(): boolean {
    return (this.newest?.status ?? "logged_out") === "logged_out";
  }
}

/** What the cases exercised (so the property cannot hold by never reaching the lock). */
const seen = { accepted: 0, loginHeld: 0, saleLoggedIn: 0, saleHeld: 0, pending: 0 };

const sql = <R>(text: string, params?: unknown[]) => rig.servers[0].sql<R>(text, params);

/** Runs one case; answers the violations found (empty when the property holds). */
async function runCase(commands: Command[], locked: boolean): Promise<string[]> {
  const clientId = rig.clientId;
  await sql(
    `DELETE FROM lock_history; DELETE FROM login_status WHERE user_id = ${Number(seller.userId)}; DELETE FROM outbox WHERE payload->>'user_id' = '${Number(seller.userId)}'`,
  );
  const view = new MarketView();
  /** Status requests left in flight (the `await` command picks one). */
  const inflight: Promise<unknown>[] = [];
  const open: ExchangeCall[] = [];
  const pending: string[] = [];
  const arrivals = new Map<string, (c: ExchangeCall) => void>();
  const markers: Promise<unknown>[] = [];
  const sales: Promise<unknown>[] = [];
  rig.chain.onCall = (c) => {
    // The sale reached the chain (accepted): mark it on the row's linearization before anything settles it.
    seen.accepted += 1;
    const marked = sql("INSERT INTO lock_history (user_id, kind) VALUES ($1, 'accepted')", [seller.userId]).then(() => {
      open.push(c);
      arrivals.get(c.request.state)?.(c);
    });
    markers.push(marked);
  };
  let states = 0;
  const settledMark = () => sql("INSERT INTO lock_history (user_id, kind) VALUES ($1, 'settled')", [seller.userId]);
  for (const cmd of commands) {
    switch (cmd.kind) {
      case "login":
      case "logout": {
        const sent = (cmd.kind === "login" ? rig.login(cmd.instance, seller) : rig.logout(cmd.instance, seller)).then((res) => {
          if (res.json["error"] === "slot_transfer_in_progress") seen.loginHeld += 1;
          return res;
        });
        if (cmd.wait) await sent;
        else inflight.push(sent);
        break;
      }
      case "deliver": {
        const events = await sql<{ id: string; status: string; ts: string }>(
          "SELECT id::text AS id, payload->>'status' AS status, payload->>'timestamp' AS ts FROM outbox WHERE payload->>'user_id' = $1 ORDER BY id",
          [seller.userId],
        );
        if (events.length > 0) view.deliver(events[cmd.pick % events.length]!);
        break;
      }
      case "list":
        if (view.believesLoggedOut) view.listed = true;
        break;
      case "buy": {
        if (!view.listed) break;
        states += 1;
        const state = `p${states}`;
        const arrived = new Promise<ExchangeCall>((resolve) => arrivals.set(state, resolve));
        const base = locked ? rig.servers[cmd.instance].url : unlockedUrls[cmd.instance]!;
        const answered = call(base, "POST", PATHS.exchangeTokenOwner, {
          token: seller.tokens[cmd.instance],
          body: {
            state,
            cu_id: rig.cuid,
            from_uuid: seller.userId,
            to_uuid: buyer.userId,
            meta_idx: 0,
            pin_hash: "11".repeat(32),
            key_share_user: "22".repeat(32),
          },
        }).then((res) => {
          if (res.json["error"] === "logout_required") seen.saleLoggedIn += 1;
          if (res.json["error"] === "slot_transfer_in_progress") seen.saleHeld += 1;
          if (res.status === 202) seen.pending += 1;
          return res;
        });
        sales.push(answered); // answered once the model settles it (never awaited before: it may wait on the chain)
        // Either the sale reached the chain (and waits there for the model) or it was answered (refused).
        await Promise.race([arrived, answered]);
        break;
      }
      case "settle": {
        if (open.length === 0) break;
        const [c] = open.splice(cmd.pick % open.length, 1) as [ExchangeCall];
        // The chain settled the sale's write (pending: it will, later; broken: nobody knows, until the case ends).
        if (cmd.outcome.kind === "answer" || cmd.outcome.kind === "refused") await settledMark();
        c.settle(cmd.outcome);
        if (cmd.outcome.kind === "pending") pending.push(c.writeId!);
        break;
      }
      case "land": {
        if (pending.length === 0) break;
        const [writeId] = pending.splice(cmd.pick % pending.length, 1) as [string];
        await settledMark();
        rig.chain.settleWrite(writeId, cmd.status);
        break;
      }
      case "await": {
        if (inflight.length === 0) break;
        await inflight.splice(cmd.pick % inflight.length, 1)[0];
        break;
      }
    }
  }
  // The end of the case: the chain answers every sale still open, then everything is awaited.
  await Promise.all(markers);
  for (const c of open.splice(0)) {
    await settledMark();
    c.settle({ kind: "answer" });
  }
  await Promise.all([...inflight, ...sales]);
  if (rig.chain.open.length > 0) return ["a sale reached the chain after the case ended"];
  await settledMark(); // broken and pending writes: their interval ends with the case
  const history = await sql<HistoryRow>(
    `SELECT seq::text AS seq, kind, status, (hold_until IS NOT NULL AND hold_until > at) AS held, hold_ref AS ref
     FROM lock_history WHERE user_id = $1 AND (client_id IS NULL OR client_id = $2) ORDER BY seq`,
    [seller.userId, clientId],
  );
  return violations(history);
}

/** The property, read off the row's linearization. */
function violations(history: HistoryRow[]): string[] {
  const found: string[] = [];
  let status = "logged_out";
  let openSales = 0;
  for (const h of history) {
    if (h.kind === "row") {
      status = h.status!;
      if (status === "logged_in" && h.held) found.push(`row ${h.seq}: logged_in while the hold ${h.ref} stands`);
      if (status === "logged_in" && openSales > 0) found.push(`row ${h.seq}: logged_in while ${openSales} sale(s) are between acceptance and settlement`);
    } else if (h.kind === "accepted") {
      if (status === "logged_in") found.push(`marker ${h.seq}: a sale was accepted while the seller is logged_in`);
      openSales += 1;
    } else openSales = Math.max(0, openSales - 1);
  }
  return found;
}

/** The property's run with the lock on or off; answers fast-check's details. */
function check(locked: boolean, numRuns: number) {
  return fc.check(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 20 }), async (commands) => {
      const found = await runCase(commands, locked);
      if (found.length > 0) throw new Error(found.join("; "));
    }),
    { numRuns, seed: Number(process.env["LISTING_LOCK_SEED"] ?? Date.now() % 2 ** 31), endOnFailure: !locked },
  );
}

beforeAll(async () => {
  expect(TEST_DB, "the fault project runs on PostgreSQL").toBe("postgres");
  rig = await startLockRig();
  [seller, buyer] = (await rig.users(2)) as [RigUser, RigUser];
  await sql(`
    CREATE TABLE lock_history (
      seq BIGSERIAL PRIMARY KEY, user_id BIGINT NOT NULL, client_id TEXT, kind TEXT NOT NULL DEFAULT 'row',
      status TEXT, hold_until TIMESTAMPTZ, hold_ref TEXT, at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());
    CREATE FUNCTION lock_history_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO lock_history (user_id, client_id, status, hold_until, hold_ref) VALUES (NEW.user_id, NEW.client_id, NEW.status, NEW.transfer_hold_until, NEW.transfer_hold_ref);
      RETURN NEW; END $$;
    CREATE TRIGGER lock_history_row AFTER INSERT OR UPDATE ON login_status FOR EACH ROW EXECUTE FUNCTION lock_history_row();`);
  // The fault switch: exchange_token_owner as it was before the lock, on each instance's own services.
  for (const server of rig.servers) {
    const services = server.slotgate.services;
    const app = express();
    const router = Router();
    mountEndpoint(router, services, ENDPOINTS.exchangeTokenOwner, { chain: true }, (input, { chain, write }) => chain.exchangeSlotOwner(input, write));
    app.use(router);
    app.use(errorHandler(services.log));
    const http = createServer(app);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    unlocked.push(http);
    unlockedUrls.push(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  }
}, 120_000);

afterAll(async () => {
  for (const http of unlocked) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
  await rig?.close();
});

describe("the listing lock's property (two instances, one PostgreSQL)", () => {
  it(`no sale is accepted while the seller is logged in, and no login while a hold stands (${RUNS} cases)`, async () => {
    const started = Date.now();
    const details = await check(true, RUNS);
    process.stderr.write(
      `[listing-lock property] ${details.numRuns} cases in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${details.seed}): ${JSON.stringify(seen)}\n`,
    );
    expect(details.failed, details.failed ? `counterexample ${JSON.stringify(details.counterexample)}: ${String(details.errorInstance)}` : "").toBe(false);
    expect(details.numRuns).toBe(RUNS);
    // The cases reached every side of the lock: sales accepted, sales refused for a login and for a hold,
    // logins refused for a hold, pending writes.
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  }, 600_000);

  it("without the lock (the exchange route as it was) the same model finds a counterexample", async () => {
    const details = await check(false, 2_000);
    process.stderr.write(`[listing-lock property, lock off] counterexample after ${details.numRuns} cases: ${String(details.errorInstance)}\n`);
    expect(details.failed).toBe(true);
    expect(String(details.errorInstance)).toMatch(/accepted while the seller is logged_in|logged_in while \d+ sale/);
  }, 300_000);
});
