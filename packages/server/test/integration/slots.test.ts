import { randomBytes } from "node:crypto";
import { developmentKey } from "@slotgate/chain-service";
import { connectAccount } from "@slotgate/contracts";
import { encryptHex } from "@slotgate/protocol/crypto";
import { Wallet, getAddress } from "ethers";
import type { SlotView } from "@slotgate/protocol";
import {
  errorBodySchema,
  metaGetTokenResponseSchema,
  slotActivateResponseSchema,
  slotListResponseSchema,
  slotResponseSchema,
} from "@slotgate/protocol/schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainUser, chainContracts, chainOf, newUser, pinOf, postBasic, type TestClient } from "../support/chain-flows.js";
import { authorizeCode, BrowserSession, call, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { type Receiver, startReceiver } from "../support/receiver.js";
// The chain-service's own way of making a slot wallet unsafe (its back-door test uses the same helper).
import { clearSlotWalletFlag, runForeignImplementation } from "../../../chain-service/test/helpers/unsafe-slot-wallet.js";

/**
 * The slot endpoints (issue 16) on the real stack (the server with its development chain): the
 * `content_address` of the token response and of slot info is the user's ACTIVE slot of the client's
 * cuid and `tr_cnt` is the chain's; a user lists and opens slots; activation waits for logout (spec 3.1
 * rule 2) and purchases then go to the newly active slot; one slot is readable by anyone; bad input is
 * a 4xx with a stable code.
 */
let server: TestServer;
let backend: Receiver;
let client: TestClient;
let callbackUri: string;
let cuid: string;
let seller: ChainUser;
/** The cuid's encryption key and IV (init_permission_provider's answer), for the encrypted spend call. */
let aes: { key: string; iv: string };
const POPUP = "https://web.example/popup";
const OWNER = "0x00000000000000000000000000000000c0ffee16";

beforeAll(async () => {
  backend = await startReceiver();
  server = await startTestServer({ CHAIN: "anvil" });
  callbackUri = `${backend.url}/api/slotgate/callback`;
  client = await registerClient(server.url, { blockchain: true, redirect_uris: ["https://app.example/callback", POPUP, callbackUri] });
  cuid = `slots-${randomBytes(4).toString("hex")}`;
  const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
    client_id: client.client_id,
    cuid,
    release_per: 20,
    owner_addr: OWNER,
  });
  expect(init.status, JSON.stringify(init.json)).toBe(200);
  aes = { key: String(init.json["aes_key"]), iv: String(init.json["aes_iv"]) };
  seller = await newUser(server, client);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await backend?.close();
});

const listSlots = async (user: { token: string }, slotCuid = cuid) => {
  const res = await call(server.url, "GET", `/v1/slots?cu_id=${encodeURIComponent(slotCuid)}`, { token: user.token });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return slotListResponseSchema.parse(res.json).slots;
};
const readSlot = async (metaIdx: number) => {
  const res = await call(server.url, "GET", `/v1/slots/${cuid}/${metaIdx}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return slotResponseSchema.parse(res.json).slot;
};
const activeOf = (slots: SlotView[]) => slots.filter((s) => s.state === "active");

/** Signs `email` in again on `at` (page mode; the cuid's client by default) and exchanges the code: the token response. */
async function signInAgain(user: { email: string; password: string }, at: TestClient = client) {
  const { code } = await authorizeCode(server.url, at, { email: user.email, password: user.password, signup: false });
  const res = await exchange(server.url, at, code);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

/** Slot info (spec 2.3) of `user` through the backend SDK flow: popup login → authorize → callback → get_token. */
async function slotInfoOf(user: { email: string; password: string }) {
  const params = { client_id: client.client_id, redirect_uri: POPUP, response_type: "code", state: "s", display: "popup" };
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
  const popup = await browser.submitWithMailbox({ ...params, csrf_token: page.csrf, email: user.email, password: user.password, decision: "approve" });
  const jwt = (JSON.parse(/id="slotgate-result">([^<]+)</.exec(popup.html)![1]!) as { messages: Array<{ data: string }> }).messages[0]!.data;
  const state = `slot-info-${randomBytes(4).toString("hex")}`;
  const start = backend.received.length;
  const authorize = await call(
    server.url,
    "GET",
    `/v1/oauth-meta/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: callbackUri, state })}`,
    { token: jwt },
  );
  expect(authorize.status).toBe(200);
  const hook = (await backend.waitFor(start + 1)).slice(start).find((r) => r.url.searchParams.get("state") === state)!;
  const token = await call(server.url, "POST", "/v1/oauth-meta/get_token", {
    body: { client_id: client.client_id, client_secret: client.client_secret, code: hook.url.searchParams.get("code"), redirect_uri: callbackUri },
  });
  expect(token.status, JSON.stringify(token.json)).toBe(200);
  return metaGetTokenResponseSchema.parse(token.json);
}

/** Waits (bounded) until the slot's queued on-chain registration (`buy_slot`) has landed. */
async function registeredOnChain(metaIdx: number): Promise<SlotView> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const slot = await readSlot(metaIdx);
    if (slot.registered) return slot;
    if (Date.now() > deadline) throw new Error(`slot ${cuid}/${metaIdx} not registered on chain within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("content_address and tr_cnt name the user's active slot of the client's cuid", () => {
  it("the code exchange opens the user's first slot: its wallet is the token response's content_address (the C_SALT wallet), and slot info says the same with cu_id, meta_idx and the chain's tr_cnt", async () => {
    const slots = await listSlots(seller);
    expect(slots).toHaveLength(1);
    const [first] = slots;
    expect(first).toMatchObject({ cuid, state: "active", owner_user_id: seller.userId, slot: seller.contentAddress });
    expect(await chainOf(server).contentAddressFor(seller.uuid), "a user's first slot ever uses the C_SALT wallet (spec 2.6)").toBe(seller.contentAddress);

    const info = await slotInfoOf(seller);
    const onChain = await readSlot(first!.meta_idx);
    expect(info).toMatchObject({ id: seller.userId, content_address: first!.slot, cu_id: cuid, meta_idx: first!.meta_idx, tr_cnt: onChain.tr_cnt });
    expect(await listSlots(seller), "signing in again opens no other slot").toHaveLength(1);
  });

  it("a blockchain client that registered no cuid answers the user's C_SALT wallet, tr_cnt 0 and no cu_id", async () => {
    const plain = await registerClient(server.url, { blockchain: true });
    const user = await newUser(server, plain);
    expect(user.contentAddress).toBe(await chainOf(server).contentAddressFor(user.uuid));
    expect(await listSlots(user), "no slot was opened").toEqual([]);
  });
});

describe("a user's slots: list, open, activate", () => {
  let first: SlotView;
  let second: SlotView;

  it("POST /v1/slots opens another slot (201): a new wallet and meta_idx, sleeping while another is active", async () => {
    first = (await listSlots(seller))[0]!;
    const opened = await call(server.url, "POST", "/v1/slots", { token: seller.token, body: { cu_id: cuid } });
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    second = slotResponseSchema.parse(opened.json).slot;
    expect(second).toMatchObject({ cuid, state: "sleeping", owner_user_id: seller.userId, tr_cnt: 0, balance: "0", used_balances: "0" });
    expect(second.slot).not.toBe(first.slot);
    expect(second.meta_idx).not.toBe(first.meta_idx);
    const slots = await listSlots(seller);
    expect(slots.map((s) => [s.meta_idx, s.state])).toEqual([
      [first.meta_idx, "active"],
      [second.meta_idx, "sleeping"],
    ]);
    expect((await signInAgain(seller))["content_address"], "the active slot still answers").toBe(first.slot);
  });

  it("activation is refused with 409 logout_required while the user is logged in at the game, and accepted after logout; purchases then land in the newly active slot", async () => {
    const status = (which: "login" | "logout") =>
      call(server.url, "POST", `/v1/oauth/status/${which}`, { token: seller.token, body: { user_id: seller.userId, client_id: client.client_id } });
    const activate = (metaIdx: number) => call(server.url, "POST", "/v1/slots/activate", { token: seller.token, body: { cu_id: cuid, meta_idx: metaIdx } });
    expect((await status("login")).status).toBe(200);
    const refused = await activate(second.meta_idx);
    expect([refused.status, refused.json["error"]]).toEqual([409, "logout_required"]);
    expect(errorBodySchema.parse(refused.json).message).toMatch(/logout/);
    expect(
      activeOf(await listSlots(seller)).map((s) => s.meta_idx),
      "nothing changed",
    ).toEqual([first.meta_idx]);

    expect((await status("logout")).status).toBe(200);
    const accepted = await activate(second.meta_idx);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    expect(slotActivateResponseSchema.parse(accepted.json).active).toMatchObject({ meta_idx: second.meta_idx, slot: second.slot, state: "active" });
    const slots = await listSlots(seller);
    expect(Object.fromEntries(slots.map((s) => [s.meta_idx, s.state]))).toEqual({ [first.meta_idx]: "sleeping", [second.meta_idx]: "active" });
    expect((await signInAgain(seller))["content_address"], "the token response follows the active slot").toBe(second.slot);

    const fund = await postBasic(server, client, "/v1/dev/fund_slot", { client_id: client.client_id, user_id: seller.userId, xotn: "5000", cuid });
    expect(fund.status, JSON.stringify(fund.json)).toBe(200);
    const buy = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
      client_id: client.client_id,
      user_dbkey: seller.userId,
      amount: "1000",
      cuid,
    });
    expect(buy.status, JSON.stringify(buy.json)).toBe(200);
    expect(await readSlot(second.meta_idx)).toMatchObject({ balance: "1000", used_balances: "0" });
    expect(await readSlot(first.meta_idx), "the sleeping slot got nothing").toMatchObject({ balance: "0", used_balances: "0" });
  });

  it("a sale moves a slot with its wallet: the buyer's slot info names it with the chain's tr_cnt, and the public read shows the new owner", async () => {
    const pin = pinOf("161616");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: seller.token, body: { user_uuid: seller.uuid, ...pin } });
    expect(reg.status, JSON.stringify(reg.json)).toBe(200);
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    await registeredOnChain(first.meta_idx);
    // The buyer has a wallet (a blockchain client without a cuid provisions it) and no slot of this cuid.
    const plain = await registerClient(server.url, { blockchain: true });
    const buyer = await newUser(server, plain);
    // A blockchain client without a cuid names the seller's C_SALT wallet, which is the slot being sold.
    expect((await signInAgain(seller, plain))["content_address"]).toBe(first.slot);
    const sale = await call(server.url, "POST", "/idex-platform/exchange_token_owner", {
      token: seller.token,
      body: {
        state: `sale-${randomBytes(6).toString("hex")}`,
        cu_id: cuid,
        from_uuid: seller.userId,
        to_uuid: buyer.userId,
        meta_idx: first.meta_idx,
        ...pin,
        key_share_user: share,
      },
    });
    expect(sale.status, JSON.stringify(sale.json)).toBe(200);
    expect(sale.json["tr_cnt"]).toBe(1);

    const sold = await readSlot(first.meta_idx);
    expect(sold).toMatchObject({ slot: first.slot, owner_user_id: buyer.userId, tr_cnt: 1, state: "active" });
    const info = await slotInfoOf(buyer);
    expect(info, "the bought slot is the buyer's active one (the buyer had none)").toMatchObject({
      id: buyer.userId,
      content_address: first.slot,
      cu_id: cuid,
      meta_idx: first.meta_idx,
      tr_cnt: 1,
    });
    expect(
      (await listSlots(seller)).map((s) => s.meta_idx),
      "the seller keeps the other slot",
    ).toEqual([second.meta_idx]);
    // Neither of the seller's answers names the sold wallet any more (issue 28): without a cuid the seller's own
    // user wallet, with the cuid the seller's active slot.
    expect((await signInAgain(seller, plain))["content_address"]).toBe(await chainOf(server).walletAddressFor(seller.uuid));
    expect((await signInAgain(seller))["content_address"]).toBe(second.slot);
  });
});

describe("a slot whose wallet the chain cannot show clean is refused at exchange_token_owner (slot_wallet_unsafe)", () => {
  // The chain service's check (chain/wallet-lock.ts) as a caller of the HTTP API meets it: 409 with the reason in
  // `details` (docs/errors.md), a message saying what to do, and nothing moved on the chain.
  const unsafe: Array<[reason: string, tamper: (chain: ReturnType<typeof chainContracts>, wallet: string) => Promise<unknown>]> = [
    ["not_a_slot_wallet", (chain, wallet) => clearSlotWalletFlag(chain.provider, wallet)],
    [
      "foreign_implementation",
      (chain, wallet) => runForeignImplementation(chain.provider, new Wallet(developmentKey(9), chain.provider), chainOf(server).addresses.entryPoint, wallet),
    ],
  ];
  for (const [reason, tamper] of unsafe) {
    it(`${reason}: 409 slot_wallet_unsafe with details.reason and what to do; owner, balance and used_balances stay as the chain had them`, async () => {
      const owner = await newUser(server, client);
      const [slot] = await listSlots(owner);
      const pin = pinOf("272727");
      const reg = await call(server.url, "POST", "/v1/pin/register", { token: owner.token, body: { user_uuid: owner.uuid, ...pin } });
      expect(reg.status, JSON.stringify(reg.json)).toBe(200);
      const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
      await registeredOnChain(slot!.meta_idx);
      // Tokens and a spending record in the slot; the purchase deploys its wallet, the only kind the check reads.
      const fund = await postBasic(server, client, "/v1/dev/fund_slot", { client_id: client.client_id, user_id: owner.userId, xotn: "5000", cuid });
      expect(fund.status, JSON.stringify(fund.json)).toBe(200);
      const buy = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
        client_id: client.client_id,
        user_dbkey: owner.userId,
        amount: "1000",
        cuid,
      });
      expect(buy.status, JSON.stringify(buy.json)).toBe(200);
      const used = JSON.stringify({ client_id: client.client_id, user_dbkey: owner.userId, amount: "300", cuid });
      const spend = await postBasic(server, client, "/v1/development-api/increase_used_content_token", {
        encrypted_message: encryptHex(used, aes.key, aes.iv),
      });
      expect(spend.status, JSON.stringify(spend.json)).toBe(200);
      const buyer = await newUser(server, await registerClient(server.url, { blockchain: true }));

      const chain = chainContracts(server);
      try {
        await tamper(chain, slot!.slot);
        const onChain = async () => ({
          registry: [...(await chain.exchange.slot_info(cuid, BigInt(slot!.meta_idx)))],
          walletOwner: getAddress(await connectAccount(slot!.slot, chain.provider).owner()),
          xotn: await chain.xotn.balanceOf(slot!.slot),
        });
        const before = await onChain();
        expect(before.registry.slice(1), "[slot, tr_cnt, balance, used_balances] before the sale").toEqual([getAddress(slot!.slot), 0n, 700n, 300n]);

        const sale = await call(server.url, "POST", "/idex-platform/exchange_token_owner", {
          token: owner.token,
          body: {
            state: `unsafe-${randomBytes(6).toString("hex")}`,
            cu_id: cuid,
            from_uuid: owner.userId,
            to_uuid: buyer.userId,
            meta_idx: slot!.meta_idx,
            ...pin,
            key_share_user: share,
          },
        });
        expect([sale.status, sale.json["error"]], JSON.stringify(sale.json)).toEqual([409, "slot_wallet_unsafe"]);
        const body = errorBodySchema.parse(sale.json);
        expect(body.details).toEqual([{ path: "reason", message: reason }]);
        expect(body.message).toMatch(
          /nothing was moved; this slot cannot be sold and stays with its seller; retrying does not help: list another slot instead$/,
        );

        expect(await onChain(), "owner (registry and wallet key), XOTN, balance and used_balances as before").toEqual(before);
        expect(await readSlot(slot!.meta_idx)).toMatchObject({ owner_user_id: owner.userId, tr_cnt: 0, balance: "700", used_balances: "300" });
      } finally {
        chain.close();
      }
    });
  }
});

describe("GET /v1/slots/:cu_id/:meta_idx (public)", () => {
  it("reads one slot without a token, for any origin; an unknown slot is 404 slot_not_found", async () => {
    const [mine] = await listSlots(seller);
    const res = await call(server.url, "GET", `/v1/slots/${cuid}/${mine!.meta_idx}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(slotResponseSchema.parse(res.json).slot).toEqual(mine);
    const unknown = await call(server.url, "GET", `/v1/slots/${cuid}/987654`);
    expect([unknown.status, unknown.json["error"]]).toEqual([404, "slot_not_found"]);
  });
});

describe("bad input on the slot endpoints", () => {
  it("answers 4xx with a stable code and a message naming what to fix", async () => {
    const other = await newUser(server, client);
    const [otherSlot] = await listSlots(other);
    const before = JSON.stringify(await listSlots(seller));
    const t = seller.token;
    const cases: Array<[string, string, { body?: unknown; token?: string }, number, string]> = [
      ["list without cu_id", "GET /v1/slots", { token: t }, 400, "invalid_request"],
      ["list with a bad cu_id", "GET /v1/slots?cu_id=x%20y", { token: t }, 400, "invalid_request"],
      ["list without a token", `GET /v1/slots?cu_id=${cuid}`, {}, 401, "invalid_token"],
      ["list with a bad token", `GET /v1/slots?cu_id=${cuid}`, { token: "not-a-token" }, 401, "invalid_token"],
      ["open without cu_id", "POST /v1/slots", { token: t, body: {} }, 400, "invalid_request"],
      ["open with an extra field", "POST /v1/slots", { token: t, body: { cu_id: cuid, meta_idx: 3 } }, 400, "invalid_request"],
      ["open with a non-JSON body", "POST /v1/slots", { token: t, body: '{"cu_id":' }, 400, "malformed_json"],
      ["open an unregistered cuid", "POST /v1/slots", { token: t, body: { cu_id: "no-such-cuid-16" } }, 404, "provider_not_registered"],
      ["open without a token", "POST /v1/slots", { body: { cu_id: cuid } }, 401, "invalid_token"],
      ["activate a negative meta_idx", "POST /v1/slots/activate", { token: t, body: { cu_id: cuid, meta_idx: -1 } }, 400, "invalid_request"],
      ["activate a meta_idx given as a string", "POST /v1/slots/activate", { token: t, body: { cu_id: cuid, meta_idx: "1" } }, 400, "invalid_request"],
      ["activate without meta_idx", "POST /v1/slots/activate", { token: t, body: { cu_id: cuid } }, 400, "invalid_request"],
      ["activate another user's slot", "POST /v1/slots/activate", { token: t, body: { cu_id: cuid, meta_idx: otherSlot!.meta_idx } }, 403, "not_owner"],
      ["activate an unknown slot", "POST /v1/slots/activate", { token: t, body: { cu_id: cuid, meta_idx: 987654 } }, 404, "slot_not_found"],
      ["read a meta_idx that is not a number", `GET /v1/slots/${cuid}/abc`, {}, 400, "invalid_request"],
      ["read a meta_idx with a sign", `GET /v1/slots/${cuid}/-1`, {}, 400, "invalid_request"],
      ["read a bad cu_id", "GET /v1/slots/x%20y/0", {}, 400, "invalid_request"],
    ];
    for (const [what, route, init, status, code] of cases) {
      const [method, path] = route.split(" ") as [string, string];
      const res = await call(server.url, method, path, init);
      expect([res.status, res.json["error"]], what).toEqual([status, code]);
      expect(errorBodySchema.safeParse(res.json).success, what).toBe(true);
      if (code === "invalid_request") expect(res.json["message"], what).toMatch(/^Invalid request: /);
    }
    expect(JSON.stringify(await listSlots(seller)), "nothing changed").toBe(before);
  });
});

describe("OpenAPI", () => {
  it("documents the four slot endpoints", async () => {
    const doc = (await call(server.url, "GET", "/openapi.json")).json as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths["/v1/slots"]!)).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/slots/activate"]!["post"]!.responses)).toEqual(expect.arrayContaining(["200", "409", "403", "404"]));
    expect(Object.keys(doc.paths["/v1/slots"]!["post"]!.responses)).toContain("201");
    expect(doc.paths["/v1/slots/{cu_id}/{meta_idx}"]!["get"]).toBeDefined();
  });
});
