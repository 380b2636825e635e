import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLER_ASSERTION_TYPE, type ChainServiceError, USER_CALL_METHODS, runRemoteCall } from "../src/index.js";
import { sharedCaller, type TestCaller, testCaller } from "./helpers/caller.js";
import { type Harness, newUserId, pinOf, startService, codeOf } from "./helpers/setup.js";

/**
 * Evidence, not flags (docs/decisions/chain-link.md): `recover` needs the front service's single-use
 * caller assertion, and a call from another process made for a user needs one naming that user.
 */
let h: Harness;
let caller: TestCaller;
beforeAll(async () => {
  h = await startService();
  caller = await sharedCaller();
});
afterAll(async () => {
  await h.service.close();
});

async function ownerOf(user: number): Promise<string> {
  const rows = await h.db.query<{ owner_eoa: string }>("SELECT owner_eoa FROM cs_wallets WHERE user_uuid = $1", [user]);
  return rows[0]!.owner_eoa;
}

describe("recover's caller assertion", () => {
  it("refuses forged, expired, over-long, mistyped, misaddressed and other users' or calls' assertions, and moves nothing", async () => {
    const user = newUserId();
    await h.service.registerPin({ user_uuid: user, ...pinOf("246810") });
    const owner = await ownerOf(user);
    const now = Math.floor(Date.now() / 1000);
    const stranger = await testCaller();
    const bad: Record<string, Promise<string>> = {
      "another key": stranger.assert(user, "recover"),
      expired: caller.assert(user, "recover", { iat: now - 300, exp: now - 200 }),
      "lives an hour": caller.assert(user, "recover", { exp: now + 3600 }),
      "an access token's type": caller.assert(user, "recover", {}, "at+jwt"),
      "a plain JWT": caller.assert(user, "recover", {}, "JWT"),
      "another audience": caller.assert(user, "recover", { aud: "https://slotgate.example" }),
      "another call": caller.assert(user, "verifyPin"),
      "another user": caller.assert(user + 1, "recover"),
      "a short jti": caller.assert(user, "recover", { jti: "x" }),
      "no jti": caller.assert(user, "recover", { jti: undefined }),
      garbage: Promise.resolve("not.a.jwt"),
    };
    for (const [name, assertion] of Object.entries(bad)) {
      expect(await codeOf(h.service.recover({ user_uuid: user, ...pinOf("1357"), assertion: await assertion })), name).toBe("invalid_caller_assertion");
    }
    expect(await ownerOf(user), "no refused recovery re-keyed the wallet").toBe(owner);
  });

  it("accepts a valid assertion once: a replay is caller_assertion_replayed, on another instance sharing the database too", async () => {
    const user = newUserId();
    await h.service.registerPin({ user_uuid: user, ...pinOf("112358") });
    const assertion = await caller.assert(user, "recover");
    const owner = await ownerOf(user);
    expect(await codeOf(h.service.recover({ user_uuid: user, ...pinOf("2468"), assertion }))).toBe("ok");
    const rekeyed = await ownerOf(user);
    expect(rekeyed).not.toBe(owner);
    expect(await codeOf(h.service.recover({ user_uuid: user, ...pinOf("9999"), assertion }))).toBe("caller_assertion_replayed");
    const second = await startService({ db: h.db });
    try {
      expect(await codeOf(second.service.recover({ user_uuid: user, ...pinOf("8888"), assertion }))).toBe("caller_assertion_replayed");
    } finally {
      await second.service.close();
    }
    expect(await ownerOf(user)).toBe(rekeyed);
  });

  it("a service without caller keys refuses every recovery, saying what to configure", async () => {
    const bare = await startService({ callerKeys: undefined });
    try {
      const user = newUserId();
      await bare.service.registerPin({ user_uuid: user, ...pinOf("5050") });
      const error = await bare.service.recover({ user_uuid: user, ...pinOf("6060"), assertion: await caller.assert(user, "recover") }).catch((e: unknown) => e);
      expect((error as ChainServiceError).code).toBe("invalid_caller_assertion");
      expect((error as ChainServiceError).message).toContain("CHAIN_CALLER_JWKS");
    } finally {
      await bare.service.close();
    }
  });

  it("fetches the keys from the front service's JWKS URL, and answers service_unavailable when it does not answer", async () => {
    const jwks: Server = createServer((_req, res) => res.setHeader("content-type", "application/json").end(JSON.stringify(caller.keys)));
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`);
    const remote = await startService({ callerKeys: url });
    const gone = await startService({ callerKeys: new URL("http://127.0.0.1:9/.well-known/jwks.json") });
    try {
      const user = newUserId();
      await remote.service.registerPin({ user_uuid: user, ...pinOf("7070") });
      expect(await codeOf(gone.service.recover({ user_uuid: user, ...pinOf("8080"), assertion: await caller.assert(user, "recover") }))).toBe(
        "service_unavailable",
      );
      expect(await codeOf(remote.service.recover({ user_uuid: user, ...pinOf("8080"), assertion: await caller.assert(user, "recover") }))).toBe("ok");
    } finally {
      await remote.service.close();
      await gone.service.close();
      jwks.close();
    }
  });
});

describe("calls from another process made for a user", () => {
  it("the user calls are the PIN-gated and re-keying ones, and those that choose which slot a user plays", () => {
    expect([...USER_CALL_METHODS].sort()).toEqual(["activateSlot", "exchangeSlotOwner", "openSlot", "registerPin", "resetPin", "transferToken", "verifyPin"]);
  });

  it("need an assertion naming the user and the call; in process they run as before", async () => {
    const user = newUserId();
    const pin = pinOf("314159");
    const remote = (assertion: string | null, fn: () => Promise<unknown>) => codeOf(runRemoteCall({ requestId: undefined, assertion }, fn));
    const register = () => h.service.registerPin({ user_uuid: user, ...pin });
    expect(await remote(null, register)).toBe("invalid_caller_assertion");
    expect(await remote(await caller.assert(user + 1, "registerPin"), register)).toBe("invalid_caller_assertion");
    expect(await remote(await caller.assert(user, "verifyPin"), register)).toBe("invalid_caller_assertion");
    expect((await h.db.query("SELECT 1 FROM cs_wallets WHERE user_uuid = $1", [user])).length, "no refused call registered a wallet").toBe(0);
    const registered = await runRemoteCall({ requestId: undefined, assertion: await caller.assert(user, "registerPin") }, register);
    const share = registered.data[0]!.key_share_user;
    const verify = () => h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: share });
    const once = await caller.assert(user, "verifyPin");
    expect(await remote(once, verify)).toBe("ok");
    expect(await remote(once, verify)).toBe("caller_assertion_replayed");
    expect(await codeOf(verify()), "in process").toBe("ok");
    expect(CALLER_ASSERTION_TYPE).toBe("slotgate-chain-call+jwt");
  });
});
