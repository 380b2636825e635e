import type { MockService } from "@slotgate/mock-service";
import { decryptHex } from "@slotgate/protocol/crypto";
import { ENCRYPTION_TEST_VECTORS } from "@slotgate/protocol/test-vectors";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContentTokenClient, SlotgateBackendError, encryptSpendMessage, encryptWithSpendKey, serializeSpendPayload } from "../src/index.js";
import { msw, simulatedService, startMsw } from "./support/simulated-service.js";

const spendVector = ENCRYPTION_TEST_VECTORS.find((v) => v.name === "spend payload")!;

describe("encryptSpendMessage (spec 4.8)", () => {
  it("reproduces the shared spend vector byte for byte", () => {
    const payload = JSON.parse(spendVector.plaintext);
    expect(encryptSpendMessage(payload, spendVector)).toBe(spendVector.ciphertext);
  });

  it("serialises fields in the canonical order whatever the caller's key order", () => {
    const shuffled = { cuid: "demo-game", amount: "25", user_dbkey: "1001", client_id: "sg_demo_client" };
    expect(serializeSpendPayload(shuffled)).toBe(spendVector.plaintext);
    expect(encryptSpendMessage(shuffled, spendVector)).toBe(spendVector.ciphertext);
  });

  it("encryptWithSpendKey reproduces every shared vector", () => {
    for (const v of ENCRYPTION_TEST_VECTORS) expect(encryptWithSpendKey(v.plaintext, v)).toBe(v.ciphertext);
  });

  it("decrypts back to the canonical JSON for any valid payload (property)", () => {
    const key = "11".repeat(32);
    const iv = "22".repeat(16);
    fc.assert(
      fc.property(
        fc.record({
          client_id: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ""),
          user_dbkey: fc.stringMatching(/^[0-9]{1,12}$/),
          amount: fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String),
          cuid: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,20}$/),
        }),
        (payload) => {
          const hex = encryptSpendMessage(payload, { key, iv });
          expect(JSON.parse(decryptHex(hex, key, iv))).toEqual(payload);
        },
      ),
    );
  });

  it("rejects a malformed payload with the field named", () => {
    expect(() => encryptSpendMessage({ client_id: "c", user_dbkey: "1", amount: "-5", cuid: "g" }, spendVector)).toThrowError(/amount/);
    expect(() => encryptSpendMessage({ client_id: "c", user_dbkey: "1", amount: "5", cuid: "g", extra: 1 } as never, spendVector)).toThrowError(
      SlotgateBackendError,
    );
  });

  it("rejects a malformed key or IV without echoing it", () => {
    const payload = JSON.parse(spendVector.plaintext);
    const badKey = `${spendVector.key.slice(0, 62)}zz`;
    try {
      encryptSpendMessage(payload, { key: badKey, iv: spendVector.iv });
      throw new Error("expected a throw");
    } catch (err) {
      expect(err).toBeInstanceOf(SlotgateBackendError);
      expect((err as SlotgateBackendError).code).toBe("invalid_argument");
      expect((err as Error).message).not.toContain(badKey.slice(0, 20));
    }
    expect(() => encryptSpendMessage(payload, { key: spendVector.key, iv: "00" })).toThrowError(/iv must be 16 bytes/);
    expect(() => encryptSpendMessage(payload, null as never)).toThrowError(/key, iv/);
  });
});

describe("ContentTokenClient against the simulated service (spec 4.7)", () => {
  let mock: MockService;
  let tokens: ContentTokenClient;

  beforeAll(() => startMsw());
  afterAll(() => msw.close());
  beforeEach(async () => {
    mock = await simulatedService("http://127.0.0.1:9/unused");
    const c = mock.fixtures.webClient;
    tokens = new ContentTokenClient({ authServerUrl: mock.baseUrl, clientId: c.client_id, clientSecret: c.client_secret });
  });

  it("the local encryption equals the service's test_encryption", async () => {
    const p = mock.fixtures.provider;
    const { encrypted_string } = await tokens.testEncryption("héllo, Slotgate ✓");
    expect(encrypted_string).toBe(encryptWithSpendKey("héllo, Slotgate ✓", { key: p.aes_key, iv: p.aes_iv }));
  });

  it("buys, spends with the encrypted message, and reads the balance", async () => {
    const p = mock.fixtures.provider;
    const slot = mock.fixtures.slot;
    const bought = await tokens.buy({ user_dbkey: slot.user_id, amount: "1000", cuid: p.cuid });
    expect(bought).toMatchObject({ success: true, token_amount: "1000", platform_fee: "150", provider_received: "850" });
    const spent = await tokens.increaseUsed({ user_dbkey: slot.user_id, amount: "25", cuid: p.cuid }, { key: p.aes_key, iv: p.aes_iv });
    expect(spent).toMatchObject({ success: true, amount: "25", balance: "975", used_balances: "25" });
    const balance = await tokens.balance(slot.address, { cuid: p.cuid });
    expect(balance).toMatchObject({ balance: "975", used_balances: "25", cuid: p.cuid });
  });

  it("SERVICE_ERROR with the service's code: spending more than the balance, release before it is enabled", async () => {
    const p = mock.fixtures.provider;
    const slot = mock.fixtures.slot;
    const short = await tokens
      .increaseUsed({ user_dbkey: slot.user_id, amount: "5", cuid: p.cuid }, { key: p.aes_key, iv: p.aes_iv })
      .catch((e: SlotgateBackendError) => e);
    expect(short).toMatchObject({ code: "service_error", error: "insufficient_balance", serviceStatus: 409 });
    const release = await tokens.release({ cuid: p.cuid, slot: slot.address }).catch((e: SlotgateBackendError) => e);
    expect(release).toMatchObject({ code: "service_error", error: "release_disabled" });
  });

  it("a wrong secret is invalid_client, and the secret is not in the error", async () => {
    const c = mock.fixtures.webClient;
    const wrong = new ContentTokenClient({ authServerUrl: mock.baseUrl, clientId: c.client_id, clientSecret: "wrong-secret-xyz" });
    const err = await wrong.testEncryption("x").catch((e: SlotgateBackendError) => e);
    expect(err).toMatchObject({ code: "service_error", error: "invalid_client", serviceStatus: 401 });
    expect(JSON.stringify(err) + String(err)).not.toContain("wrong-secret-xyz");
  });

  it("validates the slot address before any request", async () => {
    const err = await tokens.balance("0x123").catch((e: SlotgateBackendError) => e);
    expect(err).toMatchObject({ code: "invalid_argument" });
  });
});
