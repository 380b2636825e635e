import { readMnemonicBackup } from "@slotgate/chain-service";
import { errorBodySchema, pinRecoverCodeSchema, pinRecoverWithCodeSchema } from "@slotgate/protocol/schemas";
import { Wallet } from "ethers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, call, exchange, registerClient } from "../support/flows.js";
import { type ChainUser, chainOf, chainSnapshot, newUser, pinOf, postBasic, type TestClient, xotnBalance } from "../support/chain-flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/** PIN, token transfer and slot exchange over HTTP against the real server on one in-process chain. */
let server: TestServer;
let client: TestClient;
let alice: ChainUser;
let bob: ChainUser;
const alicePin = pinOf("135790");
let aliceShare: string;
let aliceWallet: string;

beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil" });
  client = await registerClient(server.url, { blockchain: true });
  alice = await newUser(server, client);
  bob = await newUser(server, client);
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown, token?: string) => call(server.url, "POST", path, { body, ...(token ? { token } : {}) });

describe("content_address", () => {
  it("is the user's slot wallet, the same for the same user at every sign-in", async () => {
    const again = await authorizeCode(server.url, client, { email: alice.email, password: alice.password, signup: false });
    const res = await exchange(server.url, client, again.code);
    expect(res.json["user_id"]).toBe(alice.userId);
    expect(alice.contentAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(res.json["content_address"]).toBe(alice.contentAddress);
    expect(bob.contentAddress).not.toBe(alice.contentAddress);
  });
});

describe("PIN endpoints", () => {
  it("register: the bearer token's user gets a wallet whose slot is the content_address of the token exchange", async () => {
    const res = await post("/v1/pin/register", { user_uuid: alice.uuid, ...alicePin }, alice.token);
    expect(res.status).toBe(200);
    const data = (res.json["data"] as Array<{ address: string; mnemonic: string; key_share_user: string }>)[0]!;
    expect(data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(data.key_share_user).toMatch(/^[0-9a-f]{64}$/);
    aliceShare = data.key_share_user;
    aliceWallet = data.address;
    expect(await chainOf(server).contentAddressFor(alice.uuid)).toBe(alice.contentAddress);
    expect(await chainOf(server).walletAddressFor(alice.uuid)).toBe(data.address);
    expect(JSON.stringify(res.json)).not.toContain(alicePin.pin_hash);
    const again = await post("/v1/pin/register", { user_uuid: alice.uuid, ...alicePin }, alice.token);
    expect([again.status, again.json["error"]]).toEqual([409, "wallet_exists"]);
  });

  it("register for another user, without a token or with a forged one changes nothing", async () => {
    const before = await chainSnapshot(server);
    const other = await post("/v1/pin/register", { user_uuid: bob.uuid, ...pinOf("1111") }, alice.token);
    expect([other.status, other.json["error"]]).toEqual([403, "token_user_mismatch"]);
    const none = await post("/v1/pin/register", { user_uuid: bob.uuid, ...pinOf("1111") });
    expect([none.status, none.json["error"]]).toEqual([401, "invalid_token"]);
    const forged = await post("/v1/pin/register", { user_uuid: bob.uuid, ...pinOf("1111") }, `${bob.token}x`);
    expect(forged.status).toBe(401);
    expect(await chainSnapshot(server)).toBe(before);
  });

  it("verify: right PIN and share -> 200; a wrong PIN -> 401 pin_invalid with the remaining attempts", async () => {
    const ok = await post("/v1/pin/verify", { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare }, alice.token);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ success: true, address: aliceWallet, tx_hash: null });
    const wrong = await post("/v1/pin/verify", { user_uuid: alice.uuid, ...pinOf("000000", alicePin.pin_salt), key_share_user: aliceShare }, alice.token);
    expect([wrong.status, wrong.json["error"]]).toEqual([401, "pin_invalid"]);
    expect(wrong.json["details"]).toEqual([{ path: "remaining_attempts", message: "4" }]);
    const okAgain = await post("/v1/pin/verify", { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare }, alice.token);
    expect(okAgain.status, "a correct PIN clears the failure count").toBe(200);
  });

  it("five wrong PINs lock the wallet: 423 pin_locked with Retry-After, even for the right PIN", async () => {
    const eve = await newUser(server, client);
    const pin = pinOf("777777");
    const reg = await post("/v1/pin/register", { user_uuid: eve.uuid, ...pin }, eve.token);
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    for (let i = 0; i < 5; i++) {
      const wrong = await post("/v1/pin/verify", { user_uuid: eve.uuid, ...pinOf(`00000${i}`, pin.pin_salt), key_share_user: share }, eve.token);
      expect([wrong.status, wrong.json["details"]]).toEqual([401, [{ path: "remaining_attempts", message: String(4 - i) }]]);
    }
    const locked = await post("/v1/pin/verify", { user_uuid: eve.uuid, ...pin, key_share_user: share }, eve.token);
    expect([locked.status, locked.json["error"]]).toEqual([423, "pin_locked"]);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("verify with operation approve_purchases signs a sponsored UserOperation for one cuid (deploys the slot wallet)", async () => {
    const cuid = `consent-${Date.now()}`;
    const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
      client_id: client.client_id,
      cuid,
      release_per: 10,
      owner_addr: "0x00000000000000000000000000000000c0ffee01",
    });
    expect(init.status).toBe(200);
    const unknown = await post(
      "/v1/pin/verify",
      { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare, operation: { kind: "approve_purchases", cuid: "nobody-registered-it", amount: "1" } },
      alice.token,
    );
    expect([unknown.status, unknown.json["error"]]).toEqual([404, "provider_not_registered"]);
    const res = await post(
      "/v1/pin/verify",
      { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare, operation: { kind: "approve_purchases", cuid, amount: "1000000" } },
      alice.token,
    );
    expect(res.status).toBe(200);
    expect(res.json["tx_hash"]).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.json["deployed_wallet"]).toBe(true);
    expect(res.json).not.toHaveProperty("mnemonic"); // a backup is re-sealed only for wallets registered before two-share backups
  });
});

describe("POST /v1/token/transfer", () => {
  it("moves ERC-20 tokens from the user's wallet, signed with the PIN shares in the request", async () => {
    const xotn = chainOf(server).addresses.xotn;
    await chainOf(server).fundWallet({ user_uuid: alice.uuid, xotn: "5000", wallet: "user" });
    const to = "0x00000000000000000000000000000000000b0b01";
    const res = await post(
      "/v1/token/transfer",
      { from_address: aliceWallet, to_address: to, amount: "1200", contract_address: xotn, pin_hash: alicePin.pin_hash, key_share_user: aliceShare },
      alice.token,
    );
    expect(res.status).toBe(200);
    expect(res.json["transaction_hash"]).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await xotnBalance(server, to)).toBe(1200n);
    expect(await xotnBalance(server, aliceWallet)).toBe(3800n);
  });

  it("refuses another user's from_address (403 not_owner), a wrong PIN (401) and bad bodies (400), moving nothing", async () => {
    const xotn = chainOf(server).addresses.xotn;
    const to = "0x00000000000000000000000000000000000b0b02";
    const body = { from_address: aliceWallet, to_address: to, amount: "1", contract_address: xotn, pin_hash: alicePin.pin_hash, key_share_user: aliceShare };
    const notMine = await post("/v1/token/transfer", { ...body, from_address: bob.contentAddress }, alice.token);
    expect([notMine.status, notMine.json["error"]]).toEqual([403, "not_owner"]);
    const bobs = await post("/v1/token/transfer", body, bob.token);
    expect(bobs.status, "alice's wallet with bob's token").toBeGreaterThanOrEqual(400);
    const before = await chainSnapshot(server);
    for (const bad of [
      { ...body, amount: "0" },
      { ...body, amount: "-1" },
      { ...body, to_address: "0x12" },
      { ...body, extra: 1 },
      { ...body, pin_hash: "zz" },
      {},
    ]) {
      const res = await post("/v1/token/transfer", bad, alice.token);
      expect([res.status, res.json["error"]], JSON.stringify(bad)).toEqual([400, "invalid_request"]);
    }
    const noToken = await post("/v1/token/transfer", body);
    expect([noToken.status, noToken.json["error"]]).toEqual([401, "invalid_token"]);
    expect(await chainSnapshot(server)).toBe(before);
    expect(await xotnBalance(server, to)).toBe(0n);
    expect(await xotnBalance(server, aliceWallet)).toBe(3800n);
  });
});

describe("POST /idex-platform/exchange_token_owner", () => {
  const cuid = `exch-${Date.now()}`;
  beforeAll(async () => {
    const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
      client_id: client.client_id,
      cuid,
      release_per: 10,
      owner_addr: "0x00000000000000000000000000000000c0ffee01",
    });
    expect(init.status).toBe(200);
    const slot = await postBasic(server, client, "/v1/dev/register_slot", { client_id: client.client_id, cuid, meta_idx: 3, user_id: alice.userId });
    expect(slot.status).toBe(200);
    expect(slot.json["owner"]).toBe(aliceWallet);
  });

  it("the owner gives the slot to another user's wallet; the same state token cannot be used twice", async () => {
    const body = {
      state: "exchange-state-0001",
      cu_id: cuid,
      from_uuid: alice.userId,
      to_uuid: bob.userId,
      meta_idx: 3,
      ...alicePin,
      key_share_user: aliceShare,
    };
    const res = await post("/idex-platform/exchange_token_owner", body, alice.token);
    expect(res.status).toBe(200);
    const bobWallet = await chainOf(server).walletAddressFor(bob.uuid);
    expect(res.json).toMatchObject({ success: true, meta_idx: 3, new_owner: bobWallet });
    expect(await chainOf(server).slotOwner(cuid, 3)).toBe(bobWallet);
    const replay = await post("/idex-platform/exchange_token_owner", body, alice.token);
    expect([replay.status, replay.json["error"]]).toEqual([409, "replayed_message"]);
    const notOwner = await post("/idex-platform/exchange_token_owner", { ...body, state: "exchange-state-0002" }, alice.token);
    expect([notOwner.status, notOwner.json["error"]]).toEqual([403, "not_owner"]);
    const retry = await post(
      "/idex-platform/exchange_token_owner",
      { ...body, state: "exchange-state-0002", to_uuid: alice.userId, from_uuid: bob.userId },
      alice.token,
    );
    expect([retry.status, retry.json["error"]]).toEqual([403, "token_user_mismatch"]);
  });

  it("the listing lock on the real chain: a seller logged in at the cuid's game is refused 409 logout_required and the slot stays; after logout the sale lands and the hold is gone", async () => {
    const slot = await postBasic(server, client, "/v1/dev/register_slot", { client_id: client.client_id, cuid, meta_idx: 4, user_id: alice.userId });
    expect(slot.status).toBe(200);
    const status = { user_id: alice.userId, client_id: client.client_id };
    expect((await post("/v1/oauth/status/login", status, alice.token)).status).toBe(200);
    const body = {
      state: "exchange-state-lock",
      cu_id: cuid,
      from_uuid: alice.userId,
      to_uuid: bob.userId,
      meta_idx: 4,
      ...alicePin,
      key_share_user: aliceShare,
    };
    const refused = await post("/idex-platform/exchange_token_owner", body, alice.token);
    expect([refused.status, refused.json["error"]]).toEqual([409, "logout_required"]);
    expect(await chainOf(server).slotOwner(cuid, 4)).toBe(aliceWallet);
    expect((await post("/v1/oauth/status/logout", status, alice.token)).status).toBe(200);
    const sold = await post("/idex-platform/exchange_token_owner", body, alice.token);
    expect(sold.status, sold.text).toBe(200);
    expect(await chainOf(server).slotOwner(cuid, 4)).toBe(await chainOf(server).walletAddressFor(bob.uuid));
    const [row] = await server.sql<{ status: string; transfer_hold_until: Date | null }>(
      "SELECT status, transfer_hold_until FROM login_status WHERE user_id = $1 AND client_id = $2",
      [alice.userId, client.client_id],
    );
    expect(row).toEqual({ status: "logged_out", transfer_hold_until: null });
    expect((await post("/v1/oauth/status/login", status, alice.token)).status).toBe(200);
    expect((await post("/v1/oauth/status/logout", status, alice.token)).status).toBe(200);
  });

  it("bad input: 4xx with a stable code, nothing recorded, the slot stays where it is", async () => {
    const owner = await chainOf(server).slotOwner(cuid, 3);
    const before = await chainSnapshot(server);
    const body = {
      state: "exchange-state-bad",
      cu_id: cuid,
      from_uuid: alice.userId,
      to_uuid: bob.userId,
      meta_idx: 3,
      ...alicePin,
      key_share_user: aliceShare,
    };
    const cases: Array<[unknown, number, string]> = [
      [{ ...body, meta_idx: -1 }, 400, "invalid_request"],
      [{ ...body, meta_idx: "3" }, 400, "invalid_request"],
      [{ ...body, cu_id: "bad cuid!" }, 400, "invalid_request"],
      [{ ...body, state: "" }, 400, "invalid_request"],
      [{ ...body, to_uuid: "bob" }, 400, "invalid_request"],
      [{ ...body, to_uuid: alice.userId }, 400, "invalid_request"],
      [{ ...body, key_share_user: undefined }, 400, "invalid_request"],
      [{ ...body, unknown: true }, 400, "invalid_request"],
      [{ ...body, from_uuid: bob.userId }, 403, "token_user_mismatch"],
    ];
    for (const [bad, status, code] of cases) {
      const res = await post("/idex-platform/exchange_token_owner", bad, alice.token);
      expect([res.status, res.json["error"]], JSON.stringify(bad)).toEqual([status, code]);
    }
    expect((await post("/idex-platform/exchange_token_owner", body)).status).toBe(401);
    expect(await chainSnapshot(server)).toBe(before);
    expect(await chainOf(server).slotOwner(cuid, 3)).toBe(owner);
  });
});

describe("PIN reset and recovery", () => {
  it("reset with the mnemonic: same wallet, a new share; the old share no longer unlocks", async () => {
    const carol = await newUser(server, client);
    const pin = pinOf("2468");
    const reg = await post("/v1/pin/register", { user_uuid: carol.uuid, ...pin }, carol.token);
    const data = (reg.json["data"] as Array<{ address: string; mnemonic: string; key_share_user: string }>)[0]!;
    const words = await readMnemonicBackup(data.mnemonic, pin.pin_hash, data.key_share_user);
    const newPin = pinOf("97531");
    const before = await chainSnapshot(server);
    const wrongWords = await post(
      "/v1/pin/reset",
      { user_uuid: carol.uuid, mnemonic: Wallet.createRandom().mnemonic!.phrase, new_pin_hash: newPin.pin_hash, new_pin_salt: newPin.pin_salt },
      carol.token,
    );
    expect([wrongWords.status, wrongWords.json["error"]]).toEqual([401, "mnemonic_mismatch"]);
    expect(await chainSnapshot(server)).toBe(before);
    const reset = await post(
      "/v1/pin/reset",
      { user_uuid: carol.uuid, mnemonic: words, new_pin_hash: newPin.pin_hash, new_pin_salt: newPin.pin_salt },
      carol.token,
    );
    expect(reset.status).toBe(200);
    const reset0 = (reset.json["data"] as Array<{ address: string; key_share_user: string; mnemonic: string }>)[0]!;
    expect(reset0.address).toBe(data.address);
    const share = reset0.key_share_user;
    expect(share).toMatch(/^[0-9a-f]{64}$/);
    // A fresh backup under the new PIN and share; the PIN alone does not open it.
    expect(await readMnemonicBackup(reset0.mnemonic, newPin.pin_hash, share)).toBe(words);
    expect(await readMnemonicBackup(reset0.mnemonic, newPin.pin_hash, data.key_share_user)).not.toBe(words);
    const old = await post("/v1/pin/verify", { user_uuid: carol.uuid, ...pin, key_share_user: data.key_share_user }, carol.token);
    expect(old.status).toBe(401);
    const fresh = await post("/v1/pin/verify", { user_uuid: carol.uuid, ...newPin, key_share_user: share }, carol.token);
    expect([fresh.status, fresh.json["address"]]).toEqual([200, data.address]);
  });

  it("recover needs the emailed code: without it 403; password alone is not enough; wrong, expired, reused or another recovery's code refused; right code -> new share, same address", async () => {
    const dave = await newUser(server, client);
    const pin = pinOf("8642");
    const reg = await post("/v1/pin/register", { user_uuid: dave.uuid, ...pin }, dave.token);
    const data = (reg.json["data"] as Array<{ address: string; key_share_user: string }>)[0]!;
    const newPin = pinOf("5555");
    const body = { user_uuid: dave.uuid, ...newPin };
    const before = await chainSnapshot(server);
    const missing = await post("/v1/pin/recover", body, dave.token);
    expect([missing.status, missing.json["error"]]).toEqual([403, "identity_not_verified"]);
    expect(String(missing.json["message"])).toContain("/v1/pin/recover/code");
    const withPassword = await post("/v1/pin/recover", { ...body, email: dave.email, password: dave.password }, dave.token);
    expect([withPassword.status, withPassword.json["error"]]).toEqual([400, "invalid_request"]);

    const started = await post("/v1/pin/recover/code", body, dave.token);
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({ success: true, expires_in: 600, sent_to: expect.stringMatching(/^u•••@example\.test$/) });
    const recoveryId = String(started.json["recovery_id"]);
    const mail = await server.mail.next(dave.email);
    expect(mail.subject).toContain("recovery code");
    const code = /\b([0-9]{6})\b/.exec(mail.body)![1]!;
    expect(JSON.stringify(started.json)).not.toContain(code);
    const wrongCode = code === "000000" ? "000001" : "000000";
    const wrong = await post("/v1/pin/recover", { ...body, recovery_id: recoveryId, code: wrongCode }, dave.token);
    expect([wrong.status, wrong.json["error"]]).toEqual([401, "otp_invalid"]);
    const otherPin = await post("/v1/pin/recover", { ...body, ...pinOf("9999"), recovery_id: recoveryId, code }, dave.token);
    expect([otherPin.status, otherPin.json["error"]]).toEqual([400, "otp_expired"]);
    const otherUser = await post("/v1/pin/recover", { ...body, recovery_id: recoveryId, code }, alice.token);
    expect([otherUser.status, otherUser.json["error"]]).toEqual([403, "token_user_mismatch"]);
    const unknown = await post("/v1/pin/recover", { ...body, recovery_id: "A".repeat(32), code }, dave.token);
    expect([unknown.status, unknown.json["error"]]).toEqual([400, "otp_expired"]);
    expect(await chainSnapshot(server)).toBe(before);

    const ok = await post("/v1/pin/recover", { ...body, recovery_id: recoveryId, code }, dave.token);
    expect(ok.status).toBe(200);
    const recovered = (ok.json["data"] as Array<{ address: string; key_share_user: string }>)[0]!;
    expect(recovered.address).toBe(data.address);
    const verify = await post("/v1/pin/verify", { user_uuid: dave.uuid, ...newPin, key_share_user: recovered.key_share_user }, dave.token);
    expect(verify.status).toBe(200);
    const old = await post("/v1/pin/verify", { user_uuid: dave.uuid, ...pin, key_share_user: data.key_share_user }, dave.token);
    expect(old.status).toBe(401);
    const afterRecovery = await chainSnapshot(server);
    const reused = await post("/v1/pin/recover", { ...body, recovery_id: recoveryId, code }, dave.token);
    expect([reused.status, reused.json["error"]]).toEqual([400, "otp_expired"]);
    expect(await chainSnapshot(server)).toBe(afterRecovery);
  });

  it("recovery codes lock after 5 wrong entries, expire, and an account without a verified mailbox cannot ask for one", async () => {
    const erin = await newUser(server, client);
    await post("/v1/pin/register", { user_uuid: erin.uuid, ...pinOf("1212") }, erin.token);
    const body = { user_uuid: erin.uuid, ...pinOf("3434") };
    const started = await post("/v1/pin/recover/code", body, erin.token);
    const recoveryId = String(started.json["recovery_id"]);
    const code = await server.mail.nextCode(erin.email);
    const wrongCode = code === "000000" ? "000001" : "000000";
    const before = await chainSnapshot(server);
    const answers: unknown[] = [];
    for (let i = 0; i < 5; i++) answers.push((await post("/v1/pin/recover", { ...body, recovery_id: recoveryId, code: wrongCode }, erin.token)).json["error"]);
    expect(answers).toEqual(["otp_invalid", "otp_invalid", "otp_invalid", "otp_invalid", "otp_locked"]);
    const locked = await post("/v1/pin/recover", { ...body, recovery_id: recoveryId, code }, erin.token);
    expect([locked.status, locked.json["error"]]).toEqual([423, "otp_locked"]);
    expect(await chainSnapshot(server)).toBe(before);

    const second = await post("/v1/pin/recover/code", body, erin.token);
    const secondCode = await server.mail.nextCode(erin.email);
    await server.sql("UPDATE mailbox_challenges SET expires_at = now() - interval '1 second' WHERE id = $1", [second.json["recovery_id"]]);
    const expired = await post("/v1/pin/recover", { ...body, recovery_id: String(second.json["recovery_id"]), code: secondCode }, erin.token);
    expect([expired.status, expired.json["error"]]).toEqual([400, "otp_expired"]);
    expect(await chainSnapshot(server)).toBe(before);

    await server.sql("UPDATE end_users SET email_verified_at = NULL WHERE id = $1", [erin.userId]);
    const unverified = await post("/v1/pin/recover/code", body, erin.token);
    expect([unverified.status, unverified.json["error"]]).toEqual([403, "email_not_verified"]);
  });

  it("at most 5 recovery codes an hour per account: the sixth request is 429 with Retry-After and mails nothing", async () => {
    const fay = await newUser(server, client);
    const body = { user_uuid: fay.uuid, ...pinOf("5656") };
    for (let i = 0; i < 5; i++) expect((await post("/v1/pin/recover/code", body, fay.token)).status).toBe(200);
    const mails = server.mail.messages.filter((m) => m.to.includes(fay.email)).length;
    const sixth = await post("/v1/pin/recover/code", body, fay.token);
    expect([sixth.status, sixth.json["error"]]).toEqual([429, "rate_limited"]);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(server.mail.messages.filter((m) => m.to.includes(fay.email)).length).toBe(mails);
  });

  it.each(["/v1/pin/recover/code", "/v1/pin/recover"])(
    "POST %s: arbitrary JSON bodies get a 4xx error body, mail nothing and change nothing (property)",
    async (path) => {
      const challenges = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM mailbox_challenges"))[0]!.n);
      const before = [await chainSnapshot(server), await challenges()];
      await fc.assert(
        fc.asyncProperty(
          fc
            .oneof(
              fc.jsonValue(),
              fc.record(
                {
                  user_uuid: fc.oneof(fc.constant(alice.uuid), fc.jsonValue()),
                  pin_hash: fc.oneof(fc.constant(alicePin.pin_hash), fc.string()),
                  pin_salt: fc.oneof(fc.constant(alicePin.pin_salt), fc.string()),
                  recovery_id: fc.string(),
                  code: fc.oneof(fc.string(), fc.integer()),
                },
                { requiredKeys: [] },
              ),
              // A well-formed request is not "arbitrary": it rightly answers 200 (and mails a code), so the property covers the rest.
            )
            .filter((body) => !(path === "/v1/pin/recover/code" ? pinRecoverCodeSchema : pinRecoverWithCodeSchema).safeParse(body).success),
          async (body) => {
            const res = await post(path, body, alice.token);
            expect(res.status).toBeGreaterThanOrEqual(400);
            expect(res.status).toBeLessThan(500);
            expect(errorBodySchema.safeParse(res.json).success).toBe(true);
          },
        ),
        { numRuns: 40 },
      );
      expect([await chainSnapshot(server), await challenges()]).toEqual(before);
    },
  );

  it("bad bodies on every PIN endpoint: 400 invalid_request, nothing changed", async () => {
    const before = await chainSnapshot(server);
    const cases: Array<[string, unknown]> = [
      ["/v1/pin/register", { user_uuid: alice.userId, ...alicePin }],
      ["/v1/pin/register", { user_uuid: alice.uuid, pin_hash: alicePin.pin_hash }],
      ["/v1/pin/register", { user_uuid: alice.uuid, ...alicePin, pin: "1234" }],
      ["/v1/pin/verify", { user_uuid: alice.uuid, ...alicePin, key_share_user: "ab" }],
      ["/v1/pin/verify", { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare, operation: { kind: "erc20_transfer" } }],
      ["/v1/pin/verify", { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare, operation: { kind: "approve_purchases", amount: "0" } }],
      ["/v1/pin/reset", { user_uuid: alice.uuid, mnemonic: "one two three", new_pin_hash: alicePin.pin_hash, new_pin_salt: alicePin.pin_salt }],
      ["/v1/pin/recover", { user_uuid: alice.uuid, pin_hash: alicePin.pin_hash, pin_salt: "short" }],
      ["/v1/pin/recover", []],
      ["/v1/pin/recover", { user_uuid: alice.uuid, ...alicePin, recovery_id: "short", code: "123456" }],
      ["/v1/pin/recover", { user_uuid: alice.uuid, ...alicePin, recovery_id: "A".repeat(32), code: "12345" }],
      ["/v1/pin/recover", { user_uuid: alice.uuid, ...alicePin, recovery_id: "A".repeat(32), code: 123456 }],
      ["/v1/pin/recover/code", { user_uuid: alice.uuid, pin_hash: alicePin.pin_hash }],
      ["/v1/pin/recover/code", { user_uuid: alice.uuid, ...alicePin, code: "123456" }],
      ["/v1/pin/recover/code", ["text"]],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body, alice.token);
      expect([res.status, res.json["error"]], `${path} ${JSON.stringify(body)}`).toEqual([400, "invalid_request"]);
    }
    const malformed = await call(server.url, "POST", "/v1/pin/verify", { body: "{not json", token: alice.token });
    expect([malformed.status, malformed.json["error"]]).toEqual([400, "malformed_json"]);
    expect(await chainSnapshot(server)).toBe(before);
  });
});
