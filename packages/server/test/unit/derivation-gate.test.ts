import { EventEmitter } from "node:events";
import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { SlotgateServerError } from "../../src/platform/http/errors.js";
import { derivationGate } from "../../src/chain-api/pin/derivation-gate.js";

/** A response the test closes itself: the gate holds the slot until "close". */
function fakeResponse(account: string): Response & EventEmitter {
  return Object.assign(new EventEmitter(), { locals: { account } }) as unknown as Response & EventEmitter;
}

/** Runs the gate once; answers what it passed to `next` (undefined: admitted). */
function pass(gate: ReturnType<typeof derivationGate>, res: Response): Promise<unknown> {
  return new Promise((resolve) => {
    void gate({} as Request, res, (error?: unknown) => resolve(error));
  });
}

describe("derivationGate (in memory, no REDIS_URL)", () => {
  it("admits perAccount requests of one account at once, refuses the next with 429 rate_limited and Retry-After: 1, and admits again once one answered", async () => {
    const gate = derivationGate(2);
    const [first, second, third] = [fakeResponse("7"), fakeResponse("7"), fakeResponse("7")];
    expect(await pass(gate, first)).toBeUndefined();
    expect(await pass(gate, second)).toBeUndefined();
    const refused = await pass(gate, third);
    expect(refused).toBeInstanceOf(SlotgateServerError);
    expect(refused).toMatchObject({ code: "rate_limited", status: 429, headers: { "Retry-After": "1" } });
    expect(await pass(gate, fakeResponse("8")), "another account has its own slots").toBeUndefined();
    first.emit("close");
    await Promise.resolve();
    expect(await pass(gate, third), "a slot given back is taken by the next request").toBeUndefined();
  });

  it("gives a slot back once even when close is emitted twice", async () => {
    const gate = derivationGate(1);
    const res = fakeResponse("9");
    expect(await pass(gate, res)).toBeUndefined();
    res.emit("close");
    res.emit("close");
    await Promise.resolve();
    expect(await pass(gate, fakeResponse("9"))).toBeUndefined();
    expect(await pass(gate, fakeResponse("9")), "the second close did not free a slot it did not hold").toBeInstanceOf(SlotgateServerError);
  });
});
