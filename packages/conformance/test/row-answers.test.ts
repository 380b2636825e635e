import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { describe, expect, it } from "vitest";
import { expectRowAnswer, rowOf } from "../src/row-answers.js";

const slot = {
  cuid: "game-1",
  meta_idx: 0,
  slot: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  owner: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  owner_user_id: "7",
  tr_cnt: 0,
  balance: "0",
  used_balances: "0",
  state: "active",
  registered: true,
};
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("the endpoint table's answer check", () => {
  it("finds the row of a request by method and path, parameters matching one segment", () => {
    expect(rowOf("POST", "/v1/slots/activate")?.name).toBe("activateSlot");
    expect(rowOf("GET", "/v1/slots/game-1/0")?.name).toBe("slot");
    expect(rowOf("POST", "/v1/slots")?.name).toBe("openSlot");
    expect(rowOf("GET", "/v1/slots/game-1/0/extra")).toBeUndefined();
    expect(rowOf("OPTIONS", "/v1/oauth/validate")).toBeUndefined();
  });

  it("passes an answer of the row's schema and leaves the body readable", async () => {
    const response = answer(201, { success: true, slot });
    await expectRowAnswer(ENDPOINTS.openSlot, response);
    expect(await response.json()).toMatchObject({ slot: { meta_idx: 0 } });
  });

  it("fails an answer that misses a field of the row's schema, naming the row", async () => {
    const { tr_cnt: _gone, ...partial } = slot;
    await expect(expectRowAnswer(ENDPOINTS.openSlot, answer(201, { success: true, slot: partial }))).rejects.toThrow(/openSlot.*answer schema/);
  });

  it("fails a success status the row does not declare, and a body that is not JSON", async () => {
    await expect(expectRowAnswer(ENDPOINTS.openSlot, answer(200, { success: true, slot }))).rejects.toThrow(/does not declare \(201\)/);
    await expect(expectRowAnswer(ENDPOINTS.health, new Response("ok", { status: 200 }))).rejects.toThrow(/not JSON/);
  });

  it("leaves error answers and HTML pages to the other checks", async () => {
    await expectRowAnswer(ENDPOINTS.openSlot, answer(400, { success: false, error: "invalid_request", message: "x" }));
    await expectRowAnswer(ENDPOINTS.authorize, new Response("<html></html>", { status: 200 }));
  });
});
