import { signWebhook } from "@slotgate/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MARKETPLACE_SECRET, type RunningMarketplace, startMarketplace } from "./support/marketplace.js";

// The webhook receiver with a frozen clock, signed exactly as the service signs (signWebhook of @slotgate/server).

const NOW = 1_800_000_000; // seconds
let market: RunningMarketplace;
let nextId = 1;

function event(fields: { status: "logged_in" | "logged_out"; at: string; user?: string; client?: string; id?: string }) {
  return {
    id: fields.id ?? String(nextId++),
    type: "login_status.changed",
    user_id: fields.user ?? "7",
    client_id: fields.client ?? "sg_game",
    status: fields.status,
    transfer_enabled: fields.status === "logged_out",
    timestamp: fields.at,
  };
}

async function deliver(body: object | string, options: { secret?: string; signedAt?: number; headerId?: string | null } = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const id = options.headerId === undefined ? (typeof body === "string" ? undefined : (body as { id: string }).id) : options.headerId;
  const res = await fetch(`${market.origin}/webhooks/slotgate`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "slotgate-signature": signWebhook(options.secret ?? MARKETPLACE_SECRET, text, options.signedAt ?? NOW),
      ...(id ? { "slotgate-event-id": id } : {}),
    },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function statusOf(user = "7", client = "sg_game") {
  const rows = await market.db.query<{ status: string }>("SELECT status FROM mk_seller_status WHERE user_id = $1 AND client_id = $2", [user, client]);
  return rows[0]?.status ?? "none";
}

async function list(seller: string, cuid: string, metaIdx: number, state = "listed") {
  const rows = await market.db.query<{ id: string }>(
    "INSERT INTO mk_listings (cuid, meta_idx, seller_user_id, price, state) VALUES ($1, $2, $3, '100', $4) RETURNING id::text AS id",
    [cuid, metaIdx, seller, state],
  );
  return rows[0]!.id;
}

async function stateOf(id: string) {
  return (await market.db.query<{ state: string; withdrawn_reason: string | null }>("SELECT state, withdrawn_reason FROM mk_listings WHERE id = $1", [id]))[0];
}

beforeAll(async () => {
  market = await startMarketplace({ now: () => NOW * 1000, env: { GAME_CUID: "test-game", GAME_CLIENT_ID: "sg_game" } });
});
afterAll(async () => {
  await market?.stop();
});
beforeEach(async () => {
  for (const table of ["mk_webhook_events", "mk_seller_status", "mk_sales", "mk_listings"]) await market.db.query(`DELETE FROM ${table}`);
});

describe("POST /webhooks/slotgate", () => {
  it("records a correctly signed event as the seller's status", async () => {
    expect(await deliver(event({ status: "logged_in", at: "2027-01-15T08:00:00.000Z" }))).toEqual({
      status: 200,
      body: { received: true, outcome: "applied", withdrawn: [] },
    });
    expect(await statusOf()).toBe("logged_in");
  });

  it("refuses a wrong signature, a changed body and a missing header, recording nothing", async () => {
    const e = event({ status: "logged_in", at: "2027-01-15T08:00:00.000Z" });
    expect(await deliver(e, { secret: "another-secret-0123456789abcdefghijkl" })).toMatchObject({ status: 400, body: { error: "webhook_signature_invalid" } });
    const res = await fetch(`${market.origin}/webhooks/slotgate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(e) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "webhook_signature_invalid" });
    const tampered = await fetch(`${market.origin}/webhooks/slotgate`, {
      method: "POST",
      headers: { "content-type": "application/json", "slotgate-signature": signWebhook(MARKETPLACE_SECRET, JSON.stringify(e), NOW) },
      body: JSON.stringify({ ...e, status: "logged_out", transfer_enabled: true }),
    });
    expect(tampered.status).toBe(400);
    expect(await statusOf()).toBe("none");
    expect(await market.db.query("SELECT id FROM mk_webhook_events")).toEqual([]);
  });

  it("refuses a signature outside the time window (a replay), either side", async () => {
    const e = event({ status: "logged_in", at: "2027-01-15T08:00:00.000Z" });
    expect(await deliver(e, { signedAt: NOW - 301 })).toMatchObject({ status: 400, body: { error: "webhook_timestamp_out_of_window" } });
    expect(await deliver(e, { signedAt: NOW + 301 })).toMatchObject({ status: 400, body: { error: "webhook_timestamp_out_of_window" } });
    expect(await deliver(e, { signedAt: NOW - 299 })).toMatchObject({ status: 200, body: { outcome: "applied" } });
  });

  it("refuses a Slotgate-Event-Id header that does not name the body's event", async () => {
    expect(await deliver(event({ status: "logged_in", at: "2027-01-15T08:00:00.000Z", id: "5" }), { headerId: "6" })).toMatchObject({
      status: 400,
      body: { error: "webhook_payload_invalid" },
    });
  });

  it("answers a duplicate delivery 200 once more and changes nothing (dedupe by event id)", async () => {
    const login = event({ status: "logged_in", at: "2027-01-15T08:00:00.000Z", id: "100" });
    expect((await deliver(login)).body).toMatchObject({ outcome: "applied" });
    expect((await deliver(event({ status: "logged_out", at: "2027-01-15T08:05:00.000Z", id: "101" }))).body).toMatchObject({ outcome: "applied" });
    // A retry of event 100 arrives after 101: recognised by its id, the status stays logged_out.
    expect(await deliver(login)).toEqual({ status: 200, body: { received: true, outcome: "duplicate", withdrawn: [] } });
    expect(await statusOf()).toBe("logged_out");
    expect(await market.db.query("SELECT id FROM mk_webhook_events ORDER BY id")).toEqual([{ id: "100" }, { id: "101" }]);
  });

  it("keeps the newest status when deliveries arrive out of order", async () => {
    const logout = event({ status: "logged_out", at: "2027-01-15T09:00:00.000Z" });
    const login = event({ status: "logged_in", at: "2027-01-15T08:59:59.999Z" }); // earlier, delivered later
    expect((await deliver(logout)).body).toMatchObject({ outcome: "applied" });
    expect((await deliver(login)).body).toMatchObject({ outcome: "stale" });
    expect(await statusOf()).toBe("logged_out");
  });

  it("never lets a late delivery (an old event signed just now, e.g. after retries) overwrite a newer status", async () => {
    const id = await list("7", "test-game", 0);
    expect((await deliver(event({ status: "logged_out", at: "2027-01-15T10:00:00.000Z" }))).body).toMatchObject({ outcome: "applied" });
    const late = await deliver(event({ status: "logged_in", at: "2027-01-14T10:00:00.000Z" }), { signedAt: NOW });
    expect(late.body).toEqual({ received: true, outcome: "stale", withdrawn: [] });
    expect(await statusOf()).toBe("logged_out");
    expect(await stateOf(id)).toEqual({ state: "listed", withdrawn_reason: null }); // a stale logged_in withdraws nothing
  });

  it("at an equal timestamp keeps logged_in, the status that blocks listing", async () => {
    const at = "2027-01-15T11:00:00.000Z";
    await deliver(event({ status: "logged_out", at }));
    expect((await deliver(event({ status: "logged_in", at }))).body).toMatchObject({ outcome: "applied" });
    expect((await deliver(event({ status: "logged_out", at }))).body).toMatchObject({ outcome: "stale" });
    expect(await statusOf()).toBe("logged_in");
  });

  it("a logged_in withdraws the seller's listed slots of that client's cuid only", async () => {
    const mine = await list("7", "test-game", 0);
    const reserved = await list("7", "test-game", 1, "reserved");
    const otherGame = await list("7", "other-game", 0);
    const otherSeller = await list("8", "test-game", 2);
    const res = await deliver(event({ status: "logged_in", at: "2027-01-15T12:00:00.000Z" }));
    expect(res.body).toEqual({ received: true, outcome: "applied", withdrawn: [mine] });
    expect(await stateOf(mine)).toEqual({ state: "withdrawn", withdrawn_reason: "seller_logged_in" });
    expect((await stateOf(reserved))?.state).toBe("reserved"); // the buyer committed: the sale waits
    expect((await stateOf(otherGame))?.state).toBe("listed");
    expect((await stateOf(otherSeller))?.state).toBe("listed");
    // A logged_in at another client (not the game's) withdraws nothing.
    const again = await list("7", "test-game", 3);
    expect((await deliver(event({ status: "logged_in", at: "2027-01-15T12:00:01.000Z", client: "sg_other" }))).body).toMatchObject({
      outcome: "applied",
      withdrawn: [],
    });
    expect((await stateOf(again))?.state).toBe("listed");
  });
});
