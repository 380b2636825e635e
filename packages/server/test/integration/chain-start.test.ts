import { describe, expect, it } from "vitest";
import { chainSettingsFromEnv, type ChainHandle, migrate, openDatabase, startChain } from "../../src/index.js";

/** The in-process chain forgets everything at exit: its records in a persistent database are cleared at start. */
describe("startChain on the in-process chain", () => {
  it("clears the previous run's chain records (with a warning) and keeps the server's own tables", async () => {
    const db = await openDatabase({});
    await migrate(db);
    await db.query("INSERT INTO end_users (email, password_hash, nickname) VALUES ('keep@example.test', 'x', 'keep')");
    const settings = chainSettingsFromEnv({ CHAIN: "in-process" });
    const first = (await startChain(settings, db, () => undefined)) as ChainHandle;
    const wallet = await first.service.provisionWallet(77);
    await db.query("INSERT INTO slot_exchange_states (from_uuid, state_hash) VALUES ('77', 'h')");
    await first.close();

    const warnings: string[] = [];
    const second = (await startChain(settings, db, (w) => warnings.push(w))) as ChainHandle;
    try {
      expect(await second.service.contentAddressFor(77)).toBeNull();
      expect(await db.query("SELECT * FROM slot_exchange_states")).toEqual([]);
      expect(await db.query("SELECT email FROM end_users")).toEqual([{ email: "keep@example.test" }]);
      expect(warnings.some((w) => w.includes("previous run were cleared"))).toBe(true);
      expect(warnings.join("\n")).toContain("set RPC_URL");
      const again = await second.service.provisionWallet(77);
      expect(again.content_address).not.toBe(wallet.content_address);
    } finally {
      await second.close();
      await db.close();
    }
  });

  it("CHAIN=off starts nothing", async () => {
    const db = await openDatabase({});
    expect(await startChain(chainSettingsFromEnv({ CHAIN: "off" }), db, () => undefined)).toBeNull();
    await db.close();
  });
});
