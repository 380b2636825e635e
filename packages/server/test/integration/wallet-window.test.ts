import { JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basic, chainOf, pinOf, postBasic, type TestClient, xotnBalance } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { purgeOldConfirmations } from "../../src/wallet-window/confirmations-store.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { newWindowPlayer, openWindow, registerPin, type WindowPlayer, windowPost } from "../support/wallet-window.js";

/**
 * The wallet window against the real server on one development chain: a client's backend asks
 * (`POST /v1/wallet/confirmations`), the player confirms in the window with the browser session of that
 * client and the PIN shares the window keeps, the outcome is read back by the backend and on the chain.
 */
let server: TestServer;
let game: TestClient;
let otherGame: TestClient;
let player: WindowPlayer;
let stranger: WindowPlayer;
let shares: { pin_hash: string; pin_salt: string; key_share_user: string };
const cuid = `ww-${Date.now()}`;
const otherCuid = `ww-other-${Date.now()}`;

beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil" });
  game = await registerClient(server.url, { blockchain: true });
  otherGame = await registerClient(server.url, { blockchain: true, redirect_uris: ["https://other.example/callback"] });
  for (const [client, id] of [
    [game, cuid],
    [otherGame, otherCuid],
  ] as const) {
    const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
      client_id: client.client_id,
      cuid: id,
      release_per: 20,
      owner_addr: "0x00000000000000000000000000000000c0ffee03",
    });
    expect(init.status).toBe(200);
  }
  player = await newWindowPlayer(server, game);
  stranger = await newWindowPlayer(server, game);
  shares = await registerPin(server, player, "246810");
  await chainOf(server).fundWallet({ user_uuid: player.uuid, xotn: "10000" });
  await chainOf(server).fundWallet({ user_uuid: player.uuid, xotn: "1000", wallet: "user" });
});
afterAll(async () => server?.close());

const ask = (client: TestClient, body: Record<string, unknown>) => postBasic(server, client, "/v1/wallet/confirmations", body);
const read = (client: TestClient, id: string) => call(server.url, "GET", `/v1/wallet/confirmations/${id}`, { headers: basic(client) });
const approvePurchases = (amount = "5000") => ({
  user_uuid: player.uuid,
  redirect_uri: game.redirect_uris[0]!,
  request: { kind: "approve_purchases", cuid, amount },
});
/** Opens the window as `who` and approves with `body` (the CSRF token of the browser's cookie added, as the page script does). */
async function approveAs(who: WindowPlayer, id: string, body: Record<string, unknown>) {
  const page = await openWindow(server, who.cookie, `/wallet/confirm/${id}?state=s1`);
  who.cookie = page.cookie;
  const csrf = /slotgate_csrf=([^;]+)/.exec(page.cookie)?.[1] ?? "";
  return windowPost(server, page.cookie, `/wallet/confirm/${id}/approve`, { csrf_token: csrf, ...body });
}

describe("POST /v1/wallet/confirmations and GET /v1/wallet/confirmations/{id}", () => {
  it("creates a pending confirmation with its window URL; only the creating client reads it", async () => {
    const created = await ask(game, approvePurchases());
    expect(created.status, created.text).toBe(201);
    const id = String(created.json["id"]);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.json).toMatchObject({ success: true, kind: "approve_purchases", status: "pending", window_url: `${server.url}/wallet/confirm/${id}` });
    expect(Number(created.json["expires_at"]) - Date.now() / 1000).toBeGreaterThan(590);
    const got = await read(game, id);
    expect(got.json).toEqual({ success: true, id, kind: "approve_purchases", status: "pending", tx_hash: null, write_id: null });
    const foreign = await read(otherGame, id);
    expect([foreign.status, foreign.json["error"]]).toEqual([404, "confirmation_not_found"]);
  });

  it("refuses a cuid the client did not register (403 cuid_not_owned), an unregistered redirect URI and a wrong secret", async () => {
    const foreignCuid = await ask(otherGame, { ...approvePurchases(), redirect_uri: otherGame.redirect_uris[0]! });
    expect([foreignCuid.status, foreignCuid.json["error"]]).toEqual([403, "cuid_not_owned"]);
    const foreignSlot = await ask(otherGame, {
      user_uuid: player.uuid,
      redirect_uri: otherGame.redirect_uris[0]!,
      request: { kind: "slot_hand_over", cu_id: cuid, to_uuid: stranger.userId, meta_idx: 0 },
    });
    expect([foreignSlot.status, foreignSlot.json["error"]]).toEqual([403, "cuid_not_owned"]);
    const redirect = await ask(game, { ...approvePurchases(), redirect_uri: "https://evil.example/callback" });
    expect([redirect.status, redirect.json["error"]]).toEqual([401, "redirect_uri_mismatch"]);
    const secret = await ask({ ...game, client_secret: "wrong" }, approvePurchases());
    expect([secret.status, secret.json["error"]]).toEqual([401, "invalid_client"]);
  });

  it("lets another client of the cuid's developer ask (a studio's marketplace), not a client of another developer", async () => {
    const sibling = await call(server.url, "POST", "/v1/dev-user/clients", {
      token: game.devToken,
      body: {
        name: "Studio market",
        redirect_uris: ["https://market.example/callback"],
        download_url: "https://market.example/",
        web_url: "https://market.example/",
        platform: "web",
        blockchain: false,
      },
    });
    expect(sibling.status, sibling.text).toBe(201);
    const market = { ...game, client_id: String(sibling.json["client_id"]), client_secret: String(sibling.json["client_secret"]) };
    const handOver = { kind: "slot_hand_over", cu_id: cuid, to_uuid: stranger.userId, meta_idx: 0 };
    const asked = await ask(market, { user_uuid: player.uuid, redirect_uri: "https://market.example/callback", request: handOver });
    expect(asked.status, asked.text).toBe(201);
    const stranger_ = await ask(otherGame, { user_uuid: player.uuid, redirect_uri: otherGame.redirect_uris[0]!, request: handOver });
    expect([stranger_.status, stranger_.json["error"]]).toEqual([403, "cuid_not_owned"]);
  });
});

describe("the confirmation window", () => {
  it("shows who asks and what will happen to the confirmation's player only; another player or no session gets a notice", async () => {
    const id = String((await ask(game, approvePurchases("777"))).json["id"]);
    const own = await openWindow(server, player.cookie, `/wallet/confirm/${id}?state=s1`);
    expect(own.status).toBe(200);
    expect(own.html).toContain("Test app");
    expect(own.html).toContain('id="slotgate-origin" dir="ltr">https://app.example</code>');
    expect(own.html).toContain(`paying up to 777 XOTN`);
    expect(own.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await openWindow(server, stranger.cookie, `/wallet/confirm/${id}?state=s1`);
    expect(other.status).toBe(403);
    expect(other.html).toContain('data-notice="otherUser"');
    expect(other.html).not.toContain("777 XOTN");
    const none = await openWindow(server, "", `/wallet/confirm/${id}?state=s1`);
    expect(none.status).toBe(401);
    expect(none.html).toContain('data-notice="noSession"');
    expect(none.html).toContain('id="wallet-sign-in"');
  });

  it("the session of another player cannot approve, and a post without the CSRF cookie's token is refused; nothing moves", async () => {
    const id = String((await ask(game, approvePurchases())).json["id"]);
    const other = await approveAs(stranger, id, shares);
    expect([other.status, other.json["error"]]).toEqual([403, "wallet_user_mismatch"]);
    const page = await openWindow(server, player.cookie, `/wallet/confirm/${id}?state=s1`);
    const csrf = await windowPost(server, page.cookie, `/wallet/confirm/${id}/approve`, { csrf_token: "y".repeat(43), ...shares });
    expect([csrf.status, csrf.json["error"]]).toEqual([403, "csrf_failed"]);
    expect((await read(game, id)).json["status"]).toBe("pending");
  });

  it("a wrong PIN leaves it pending; the right one approves once, with a transaction that landed, and the game buys within the consent", async () => {
    const id = String((await ask(game, approvePurchases("5000"))).json["id"]);
    const wrong = await approveAs(player, id, { ...shares, ...pinOf("000000", shares.pin_salt) });
    expect([wrong.status, wrong.json["error"]]).toEqual([401, "pin_invalid"]);
    expect((await read(game, id)).json["status"]).toBe("pending");
    const ok = await approveAs(player, id, shares);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ success: true, status: "approved" });
    expect(JSON.stringify(ok.json)).not.toContain(shares.key_share_user);
    const got = await read(game, id);
    expect(got.json).toMatchObject({ status: "approved", tx_hash: ok.json["tx_hash"] });
    const provider = new JsonRpcProvider(server.slotgate.services.chain?.rpcUrl as string, undefined, { staticNetwork: true });
    try {
      const receipt = await provider.getTransactionReceipt(String(got.json["tx_hash"]));
      expect(receipt?.status).toBe(1);
    } finally {
      provider.destroy();
    }
    const again = await approveAs(player, id, shares);
    expect([again.status, again.json["error"]]).toEqual([409, "confirmation_closed"]);
    const buy = (amount: string) =>
      postBasic(server, game, "/v1/development-api/user_buy_content_token", { client_id: game.client_id, user_dbkey: player.userId, amount, cuid });
    const within = await buy("3000");
    expect(within.status, within.text).toBe(200);
    const beyond = await buy("3000");
    expect([beyond.status, beyond.json["error"]]).toEqual([409, "insufficient_allowance"]);
  });

  it("a denied transfer moves nothing and cannot be approved after", async () => {
    const wallet = (await chainOf(server).walletAddressFor(player.uuid))!;
    const to = "0x00000000000000000000000000000000000d3a1e";
    const before = [await xotnBalance(server, wallet), await xotnBalance(server, to)];
    const created = await ask(game, {
      user_uuid: player.uuid,
      redirect_uri: game.redirect_uris[0]!,
      request: { kind: "token_transfer", to_address: to, amount: "100" },
    });
    const id = String(created.json["id"]);
    const page = await openWindow(server, player.cookie, `/wallet/confirm/${id}?state=s1`);
    expect(page.html).toContain(`from your wallet ${wallet} to ${to}`);
    const denied = await windowPost(server, page.cookie, `/wallet/confirm/${id}/deny`, { csrf_token: page.csrf });
    expect(denied.json).toEqual({ success: true, status: "denied" });
    const approve = await windowPost(server, page.cookie, `/wallet/confirm/${id}/approve`, { csrf_token: page.csrf, ...shares });
    expect([approve.status, approve.json["error"]]).toEqual([409, "confirmation_closed"]);
    expect((await read(game, id)).json).toMatchObject({ status: "denied", tx_hash: null, write_id: null });
    expect([await xotnBalance(server, wallet), await xotnBalance(server, to)]).toEqual(before);
    const closed = await openWindow(server, player.cookie, `/wallet/confirm/${id}?state=s1`);
    expect([closed.status, closed.html.includes('data-notice="closed"')]).toEqual([409, true]);
  });

  it("an approved transfer moves the XOTN", async () => {
    const wallet = (await chainOf(server).walletAddressFor(player.uuid))!;
    const to = "0x00000000000000000000000000000000000d3a1f";
    const before = await xotnBalance(server, wallet);
    const id = String(
      (await ask(game, { user_uuid: player.uuid, redirect_uri: game.redirect_uris[0]!, request: { kind: "token_transfer", to_address: to, amount: "100" } }))
        .json["id"],
    );
    const ok = await approveAs(player, id, shares);
    expect(ok.json, ok.text).toMatchObject({ status: "approved" });
    expect(await xotnBalance(server, to)).toBe(100n);
    expect(await xotnBalance(server, wallet)).toBe(before - 100n);
  });

  it("a confirmation whose approving process died after the chain write is approved again once its lease is over, and moves once", async () => {
    const wallet = (await chainOf(server).walletAddressFor(player.uuid))!;
    const to = "0x00000000000000000000000000000000000d3a20";
    const before = await xotnBalance(server, wallet);
    const id = String(
      (await ask(game, { user_uuid: player.uuid, redirect_uri: game.redirect_uris[0]!, request: { kind: "token_transfer", to_address: to, amount: "100" } }))
        .json["id"],
    );
    const first = await approveAs(player, id, shares);
    expect(first.json, first.text).toMatchObject({ status: "approved" });
    // What a process killed between the chain call and recording its outcome leaves: the row taken, no outcome.
    await server.sql(
      "UPDATE wallet_confirmations SET status = 'signing', tx_hash = NULL, closed_at = NULL, signing_until = now() + interval '1 minute' WHERE id = $1",
      [id],
    );
    expect((await read(game, id)).json["status"]).toBe("pending");
    const held = await approveAs(player, id, shares);
    expect([held.status, held.json["error"]], "within the lease another approve is refused").toEqual([409, "confirmation_closed"]);
    await server.sql("UPDATE wallet_confirmations SET signing_until = now() - interval '1 second' WHERE id = $1", [id]);
    const again = await approveAs(player, id, shares);
    expect(again.json, again.text).toMatchObject({ status: "approved", tx_hash: first.json["tx_hash"] });
    expect((await read(game, id)).json).toMatchObject({ status: "approved", tx_hash: first.json["tx_hash"] });
    expect(await xotnBalance(server, to)).toBe(100n);
    expect(await xotnBalance(server, wallet)).toBe(before - 100n);
  });

  it("a confirmation whose approving process died and that nobody approves again reads the outcome of the write it made, or expired when it made none", async () => {
    const wallet = (await chainOf(server).walletAddressFor(player.uuid))!;
    const to = "0x00000000000000000000000000000000000d3a21";
    const transfer = { kind: "token_transfer" as const, to_address: to, amount: "7" };
    const moved = String((await ask(game, { user_uuid: player.uuid, redirect_uri: game.redirect_uris[0]!, request: transfer })).json["id"]);
    const first = await approveAs(player, moved, shares);
    expect(first.json, first.text).toMatchObject({ status: "approved" });
    const untouched = String((await ask(game, { user_uuid: player.uuid, redirect_uri: game.redirect_uris[0]!, request: transfer })).json["id"]);
    const before = await xotnBalance(server, wallet);
    // What a process killed inside the approve leaves, then the confirmation's ten minutes pass: taken, no outcome, expired.
    const abandon = (id: string, lease: string) =>
      server.sql(
        `UPDATE wallet_confirmations SET status = 'signing', tx_hash = NULL, closed_at = NULL, signing_until = now() + interval '${lease}', expires_at = now() - interval '1 second' WHERE id = $1`,
        [id],
      );
    await abandon(moved, "1 minute");
    expect((await read(game, moved)).json["status"], "within the lease the approving process may still answer").toBe("pending");
    await abandon(moved, "-1 second");
    expect((await read(game, moved)).json).toMatchObject({ status: "approved", tx_hash: first.json["tx_hash"] });
    await abandon(untouched, "-1 second");
    expect((await read(game, untouched)).json).toMatchObject({ status: "expired", tx_hash: null });
    const late = await approveAs(player, untouched, shares);
    expect([late.status, late.json["error"]]).toEqual([409, "confirmation_closed"]);
    expect(await xotnBalance(server, to)).toBe(7n);
    expect(await xotnBalance(server, wallet)).toBe(before);
  });

  it("an expired confirmation reads expired and is 409 confirmation_closed; 30 days after, it is purged", async () => {
    const id = String((await ask(game, approvePurchases())).json["id"]);
    await server.sql("UPDATE wallet_confirmations SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    expect((await read(game, id)).json["status"]).toBe("expired");
    const late = await approveAs(player, id, shares);
    expect([late.status, late.json["error"]]).toEqual([409, "confirmation_closed"]);
    expect(await purgeOldConfirmations(server.slotgate.services.db)).toBe(0);
    await server.sql("UPDATE wallet_confirmations SET expires_at = now() - interval '31 days' WHERE id = $1", [id]);
    expect(await purgeOldConfirmations(server.slotgate.services.db)).toBe(1);
    expect((await read(game, id)).status).toBe(404);
  });

  it("a seller hands a slot over in the window and the buyer owns it on chain", async () => {
    const slot = await postBasic(server, game, "/v1/dev/register_slot", { client_id: game.client_id, cuid, meta_idx: 5, user_id: player.userId });
    expect(slot.status, slot.text).toBe(200);
    const created = await ask(game, {
      user_uuid: player.uuid,
      redirect_uri: game.redirect_uris[0]!,
      request: { kind: "slot_hand_over", cu_id: cuid, to_uuid: stranger.userId, meta_idx: 5 },
    });
    expect(created.status, created.text).toBe(201);
    const id = String(created.json["id"]);
    const page = await openWindow(server, player.cookie, `/wallet/confirm/${id}?state=s1`);
    expect(page.status, page.html).toBe(200);
    // The buyer is named by nickname beside the id, the nickname as text; here the account's own nickname.
    const nickname = (await server.sql<{ nickname: string }>("SELECT nickname FROM end_users WHERE id = $1", [stranger.userId]))[0]?.nickname;
    expect(nickname).toMatch(/^\S+$/);
    expect(page.html).toContain(`Hand your slot 5 of ${cuid} over to player ${nickname} (ID ${stranger.userId})`);
    const ok = await windowPost(server, page.cookie, `/wallet/confirm/${id}/approve`, { csrf_token: page.csrf, ...shares });
    expect(ok.json, ok.text).toMatchObject({ status: "approved" });
    expect(await chainOf(server).slotOwner(cuid, 5)).toBe(await chainOf(server).walletAddressFor(stranger.uuid));
  });

  it("the hand-over page names the buyer by nickname beside the id: a nickname with markup comes back as text; an unknown buyer by id only", async () => {
    const handOver = (toUuid: string) =>
      ask(game, {
        user_uuid: player.uuid,
        redirect_uri: game.redirect_uris[0]!,
        request: { kind: "slot_hand_over", cu_id: cuid, to_uuid: toUuid, meta_idx: 0 },
      });
    const buyer = await newWindowPlayer(server, game);
    await server.sql("UPDATE end_users SET nickname = $1 WHERE id = $2", ['<img src=x onerror="alert(1)">&amp;', buyer.userId]);
    const id = String((await handOver(buyer.userId)).json["id"]);
    const page = await openWindow(server, player.cookie, `/wallet/confirm/${id}?state=s1`);
    expect(page.status, page.html).toBe(200);
    const what = /<p id="wallet-what" class="what">([^<]*)<\/p>/.exec(page.html)?.[1];
    expect(what, "the sentence is one text node: no element came from the nickname").toBeDefined();
    expect(what).toContain(`over to player &lt;img src=x onerror=&quot;alert(1)&quot;>&amp;amp; (ID ${buyer.userId}).`);
    expect(page.html).not.toContain("<img src=x");

    const unknown = String((await handOver("987654321")).json["id"]);
    const byId = await openWindow(server, player.cookie, `/wallet/confirm/${unknown}?state=s1`);
    expect(byId.status, byId.html).toBe(200);
    expect(byId.html).toContain(`of ${cuid} over to player 987654321. Everything`);
  });

  it("the result page posts the outcome to the confirmation's registered origin only, and carries no secret", async () => {
    const id = String((await ask(game, approvePurchases("10"))).json["id"]);
    await approveAs(player, id, shares);
    const result = await openWindow(server, player.cookie, `/wallet/confirm/${id}/result?state=opener-state`);
    expect(result.status).toBe(200);
    const payload = JSON.parse(/id="slotgate-result">([^<]+)</.exec(result.html)![1]!);
    expect(payload).toMatchObject({
      targetOrigin: "https://app.example",
      channel: "slotgate_wallet",
      messages: [
        { from: "slotgate", type: "wallet_result", state: "opener-state", data: { action: "approve_purchases", status: "approved", confirmation_id: id } },
      ],
    });
    expect(result.html).not.toContain(shares.key_share_user);
    expect(result.html).not.toContain(shares.pin_hash);
    const other = await openWindow(server, stranger.cookie, `/wallet/confirm/${id}/result?state=opener-state`);
    expect(other.status).toBe(403);
    expect(other.html).not.toContain("wallet_result");
  });
});

describe("the page-started key windows", () => {
  const windowUrl = (action: string, client = game) =>
    `/wallet/${action}?${new URLSearchParams({ client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, state: "s2" })}`;

  it("set-up answers the key share and the words to the window once; a second set-up is 409 wallet_exists", async () => {
    const fresh = await newWindowPlayer(server, game);
    const page = await openWindow(server, fresh.cookie, windowUrl("pin-setup"));
    expect(page.status).toBe(200);
    const pin = pinOf("135246");
    const body = { csrf_token: page.csrf, client_id: game.client_id, ...pin };
    const first = await windowPost(server, page.cookie, "/wallet/pin-setup", body);
    expect(first.status, first.text).toBe(200);
    expect(String(first.json["words"]).split(" ")).toHaveLength(12);
    expect(first.json["address"]).toBe(await chainOf(server).walletAddressFor(fresh.uuid));
    const again = await windowPost(server, page.cookie, "/wallet/pin-setup", body);
    expect([again.status, again.json["error"]]).toEqual([409, "wallet_exists"]);
    const otherClient = await windowPost(server, page.cookie, "/wallet/pin-setup", { ...body, client_id: otherGame.client_id });
    expect([otherClient.status, otherClient.json["error"]], "no session of that client").toEqual([401, "wallet_session_required"]);
  });

  it("a page-started window refuses a redirect URI not registered for the client, and serves no approvals window yet", async () => {
    const forged = await openWindow(
      server,
      player.cookie,
      `/wallet/pin-setup?${new URLSearchParams({ client_id: game.client_id, redirect_uri: "https://evil.example/cb", state: "x" })}`,
    );
    expect(forged.status).toBe(401);
    expect(forged.html).not.toContain('id="pin"');
    const unknown = await openWindow(
      server,
      player.cookie,
      `/wallet/pin-setup?${new URLSearchParams({ client_id: "nope", redirect_uri: game.redirect_uris[0]!, state: "x" })}`,
    );
    expect(unknown.status).toBe(401);
  });

  it("reset with the words: the new PIN and share sign, the old ones no longer do", async () => {
    const fresh = await newWindowPlayer(server, game);
    const page = await openWindow(server, fresh.cookie, windowUrl("pin-setup"));
    const oldPin = pinOf("111222");
    const setup = await windowPost(server, page.cookie, "/wallet/pin-setup", { csrf_token: page.csrf, client_id: game.client_id, ...oldPin });
    const words = String(setup.json["words"]);
    const reset = await openWindow(server, page.cookie, windowUrl("pin-reset"));
    expect(reset.html).toContain('id="mnemonic"');
    const newPin = pinOf("333444");
    const wrong = await windowPost(server, reset.cookie, "/wallet/pin-reset", {
      csrf_token: reset.csrf,
      client_id: game.client_id,
      mnemonic: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
      ...newPin,
    });
    expect([wrong.status, wrong.json["error"]]).toEqual([401, "mnemonic_mismatch"]);
    const ok = await windowPost(server, reset.cookie, "/wallet/pin-reset", { csrf_token: reset.csrf, client_id: game.client_id, mnemonic: words, ...newPin });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json["words"]).toBeUndefined();
    const verify = (shares: Record<string, string>) =>
      call(server.url, "POST", "/v1/pin/verify", { token: fresh.token, body: { user_uuid: fresh.uuid, ...shares } });
    expect((await verify({ ...newPin, key_share_user: String(ok.json["key_share_user"]) })).status).toBe(200);
    expect((await verify({ ...oldPin, key_share_user: String(setup.json["key_share_user"]) })).status).toBe(401);
  });

  it("recover with the mailed code: a new share and new words, once the code proved the mailbox", async () => {
    const fresh = await newWindowPlayer(server, game);
    const page = await openWindow(server, fresh.cookie, windowUrl("pin-setup"));
    const setup = await windowPost(server, page.cookie, "/wallet/pin-setup", { csrf_token: page.csrf, client_id: game.client_id, ...pinOf("555666") });
    expect(setup.status).toBe(200);
    const recover = await openWindow(server, page.cookie, windowUrl("recover"));
    const newPin = pinOf("777888");
    const base = { csrf_token: recover.csrf, client_id: game.client_id, ...newPin };
    const code = await windowPost(server, recover.cookie, "/wallet/recover/code", base);
    expect(code.status, code.text).toBe(200);
    const recoveryId = String(code.json["recovery_id"]);
    const mailed = await server.mail.nextCode(fresh.email);
    const wrongCode = mailed === "000000" ? "111111" : "000000";
    const refused = await windowPost(server, recover.cookie, "/wallet/recover", { ...base, recovery_id: recoveryId, code: wrongCode });
    expect([refused.status, refused.json["error"]]).toEqual([401, "otp_invalid"]);
    const ok = await windowPost(server, recover.cookie, "/wallet/recover", { ...base, recovery_id: recoveryId, code: mailed });
    expect(ok.status, ok.text).toBe(200);
    expect(String(ok.json["words"]).split(" ")).toHaveLength(12);
    expect(ok.json["words"]).not.toBe(setup.json["words"]);
    expect(ok.json["address"]).toBe(setup.json["address"]);
    const verify = await call(server.url, "POST", "/v1/pin/verify", {
      token: fresh.token,
      body: { user_uuid: fresh.uuid, ...newPin, key_share_user: String(ok.json["key_share_user"]) },
    });
    expect(verify.status).toBe(200);
  });

  it("approvals lists the player's consents for the client's own cuids; revoke ends one with the PIN, another client's cuid is 403", async () => {
    const created = await ask(game, approvePurchases("900"));
    const ok = await approveAs(player, String(created.json["id"]), shares);
    expect(ok.json).toMatchObject({ status: "approved" });
    const page = await openWindow(server, player.cookie, windowUrl("approvals"));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-cuid="${cuid}"`);
    expect(page.html).toContain(">900</td>");
    expect(page.html, "another client's cuid is not listed").not.toContain(otherCuid);
    const body = { csrf_token: page.csrf, client_id: game.client_id, ...shares };
    const foreign = await windowPost(server, page.cookie, "/wallet/approvals/revoke", { ...body, cuid: otherCuid });
    expect([foreign.status, foreign.json["error"]]).toEqual([403, "cuid_not_owned"]);
    const wrongPin = await windowPost(server, page.cookie, "/wallet/approvals/revoke", { ...body, ...pinOf("000000", shares.pin_salt), cuid });
    expect([wrongPin.status, wrongPin.json["error"]]).toEqual([401, "pin_invalid"]);
    expect(await chainOf(server).purchaseConsent(player.uuid, cuid)).toBe("900");
    const revoked = await windowPost(server, page.cookie, "/wallet/approvals/revoke", { ...body, cuid });
    expect(revoked.json, revoked.text).toMatchObject({ success: true, status: "approved" });
    expect(await chainOf(server).purchaseConsent(player.uuid, cuid)).toBe("0");
    const buy = await postBasic(server, game, "/v1/development-api/user_buy_content_token", {
      client_id: game.client_id,
      user_dbkey: player.userId,
      amount: "1",
      cuid,
    });
    expect([buy.status, buy.json["error"]]).toEqual([409, "insufficient_allowance"]);
    const after = await openWindow(server, player.cookie, windowUrl("approvals"));
    expect(after.html).toContain(">0</td>");
  });
});

describe("a confirmation whose chain write did not land within the wait", () => {
  let slow: TestServer;
  afterAll(async () => slow?.close());

  it("answers the write_id, then the write's state and, once it landed, its transaction", async () => {
    slow = await startTestServer({ CHAIN: "anvil", CHAIN_WRITE_WAIT_MS: "1" });
    const client = await registerClient(slow.url, { blockchain: true });
    const slowCuid = `ww-slow-${Date.now()}`;
    const init = await postBasic(slow, client, "/v1/development-api/init_permission_provider", {
      client_id: client.client_id,
      cuid: slowCuid,
      release_per: 20,
      owner_addr: "0x00000000000000000000000000000000c0ffee05",
    });
    expect([200, 202]).toContain(init.status);
    const who = await newWindowPlayer(slow, client);
    const pin = await registerPin(slow, who, "808080");
    const created = await postBasic(slow, client, "/v1/wallet/confirmations", {
      user_uuid: who.uuid,
      redirect_uri: client.redirect_uris[0]!,
      request: { kind: "approve_purchases", cuid: slowCuid, amount: "50" },
    });
    expect(created.status, created.text).toBe(201);
    const id = String(created.json["id"]);
    const page = await openWindow(slow, who.cookie, `/wallet/confirm/${id}?state=s`);
    const approved = await windowPost(slow, page.cookie, `/wallet/confirm/${id}/approve`, { csrf_token: page.csrf, ...pin });
    expect(approved.json, approved.text).toMatchObject({ success: true, status: "approved" });
    expect(approved.json["write_id"]).toMatch(/^[1-9][0-9]*$/);
    const readSlow = () => call(slow.url, "GET", `/v1/wallet/confirmations/${id}`, { headers: basic(client) });
    let got = await readSlow();
    expect(got.json).toMatchObject({ status: "approved", write_id: approved.json["write_id"] });
    expect(["pending", "submitted", "confirmed"]).toContain(got.json["write_status"]);
    for (let i = 0; i < 100 && got.json["write_status"] !== "confirmed"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      got = await readSlow();
    }
    expect(got.json["write_status"]).toBe("confirmed");
    expect(got.json["tx_hash"]).toMatch(/^0x[0-9a-fA-F]{64}$/);
    expect(await chainOf(slow).purchaseConsent(who.uuid, slowCuid)).toBe("50");
  });
});

describe("the window's PIN posts under the PIN endpoints' brute-force limits", () => {
  let limited: TestServer;
  afterAll(async () => limited?.close());

  it("one per-account budget for the window and /v1/pin/*: the fourth attempt within the minute, whichever way it comes, is 429 and the confirmation stays pending", async () => {
    limited = await startTestServer({
      CHAIN: "anvil",
      RATE_LIMIT: "on",
      RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
      RATE_LIMIT_PIN_PER_MINUTE: "1000",
      RATE_LIMIT_PIN_PER_ACCOUNT_PER_MINUTE: "3",
      RATE_LIMIT_PIN_REFUSAL_DELAY_MS: "0",
    });
    const client = await registerClient(limited.url, { blockchain: true });
    const who = await newWindowPlayer(limited, client);
    const pin = await registerPin(limited, who, "909090");
    await chainOf(limited).fundWallet({ user_uuid: who.uuid, xotn: "10", wallet: "user" });
    const created = await postBasic(limited, client, "/v1/wallet/confirmations", {
      user_uuid: who.uuid,
      redirect_uri: client.redirect_uris[0]!,
      request: { kind: "token_transfer", to_address: "0x00000000000000000000000000000000000d3a4e", amount: "1" },
    });
    const id = String(created.json["id"]);
    const page = await openWindow(limited, who.cookie, `/wallet/confirm/${id}?state=s`);
    const guess = () => windowPost(limited, page.cookie, `/wallet/confirm/${id}/approve`, { csrf_token: page.csrf, ...pin, ...pinOf("000000", pin.pin_salt) });
    // The budget's first attempt was the PIN's registration through /v1/pin/register; one window guess and one
    // /v1/pin/verify guess take the rest (a window with a budget of its own would still have one left).
    expect((await guess()).json["error"]).toBe("pin_invalid");
    const apiGuess = await call(limited.url, "POST", "/v1/pin/verify", {
      token: who.token,
      body: { user_uuid: who.uuid, ...pinOf("000000", pin.pin_salt), key_share_user: pin.key_share_user, operation: { kind: "verify_only" } },
    });
    expect(apiGuess.json["error"]).toBe("pin_invalid");
    const fourth = await guess();
    expect([fourth.status, fourth.json["error"]]).toEqual([429, "rate_limited"]);
    const state = await call(limited.url, "GET", `/v1/wallet/confirmations/${id}`, { headers: basic(client) });
    expect(state.json["status"]).toBe("pending");
  });
});
