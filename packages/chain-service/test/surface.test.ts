import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_SERVICE_METHODS, type ChainService, ChainServiceError, runRemoteCall } from "../src/index.js";
import { serviceOver } from "../src/surface.js";
import { type Harness, newUserId, pinOf, startService, codeOf } from "./helpers/setup.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

const call = (name: string, args: unknown[]) => (h.service as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...args);

describe("the chain service's boundary", () => {
  it("names every method of the service, and nothing else", () => {
    const methods = Object.keys(h.service).filter((k) => typeof (h.service as unknown as Record<string, unknown>)[k] === "function");
    expect(methods.filter((m) => m !== "close").sort()).toEqual([...CHAIN_SERVICE_METHODS].sort());
  });

  it("refuses malformed arguments to every method with invalid_request, before anything runs", async () => {
    const counts = async () =>
      (
        await h.db.query<{ n: string }>("SELECT (SELECT count(*) FROM cs_wallets) + (SELECT count(*) FROM cs_providers) + (SELECT count(*) FROM cs_keys) AS n")
      )[0]!.n;
    const before = await counts();
    // No method takes undefined, null, an array or an object of random keys first: each call is malformed.
    const junk = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant({}), fc.array(fc.anything(), { maxLength: 3 }), fc.object());
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CHAIN_SERVICE_METHODS.filter((m) => m !== "ready")),
        fc.array(junk, { minLength: 1, maxLength: 3 }),
        async (name, args) => {
          expect(await codeOf(call(name, args))).toBe("invalid_request");
        },
      ),
      { numRuns: 300 },
    );
    expect(await counts()).toBe(before);
  });

  it("refuses an operation kind the verify endpoint does not offer (transfers and slot exchanges have their own methods)", async () => {
    const user = newUserId();
    const pin = pinOf("135790");
    const reg = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    const operation = { kind: "exchange_slot_owner", cuid: "game", meta_idx: 1, to_uuid: 2 };
    expect(await codeOf(call("verifyPin", [{ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation }]))).toBe("invalid_request");
  });

  it("parses each input once: with parse remote-calls, an in-process caller's arguments as given, a transport's call here", async () => {
    const user = newUserId();
    const pin = pinOf("246810");
    const reg = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    // A field the strict schema refuses: only a parse can tell.
    const body = { user_uuid: user, ...pin, key_share_user: reg.key_share_user, unparsed: true } as unknown as Parameters<ChainService["verifyPin"]>[0];
    const typed = serviceOver(h.ctx, "remote-calls");
    expect(await codeOf(h.service.verifyPin(body))).toBe("invalid_request");
    expect(await typed.verifyPin(body)).toMatchObject({ success: true, address: reg.address, tx_hash: null });
    expect(await codeOf(runRemoteCall({ requestId: undefined, assertion: null }, () => typed.verifyPin(body)))).toBe("invalid_request");
  });

  it("names the field that is wrong", async () => {
    const error = await (h.service as ChainService).registerPin({ user_uuid: 5, pin_hash: "xyz", pin_salt: "ab".repeat(32) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainServiceError);
    expect((error as ChainServiceError).message).toMatch(/^pin_hash: /);
    const second = await (h.service as ChainService).increaseUsed("sg_client", { encrypted_message: "zz" }).catch((e: unknown) => e);
    expect((second as ChainServiceError).message).toMatch(/^argument 2\.encrypted_message: /);
  });
});
