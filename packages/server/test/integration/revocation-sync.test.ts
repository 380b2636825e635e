import type { Queryable } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/index.js";
import { RevocationList } from "../../src/oauth/keys/revocation-list.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe("RevocationList.sync", () => {
  it("loads a revocation another writer commits between its two reads (it was skipped for good when the high-water mark was read last)", async () => {
    const db = server.slotgate.services.db;
    const list = new RevocationList(
      db,
      createLogger("error", () => undefined),
    );
    await list.sync();
    const late = `late-${Date.now()}`;
    let inserted = false;
    // Every statement the list sends; after its first read of the table's rows, another writer commits a revocation.
    const racing: Queryable = {
      query: async <R>(sql: string, params?: readonly unknown[]): Promise<R[]> => {
        const rows = await db.query<R>(sql, params);
        if (!inserted && sql.includes("jti, expires_at FROM revoked_tokens")) {
          inserted = true;
          await db.query("INSERT INTO revoked_tokens (jti, expires_at, reason) VALUES ($1, now() + interval '1 hour', 'test')", [late]);
        }
        return rows;
      },
    };
    Object.assign(list, { db: racing });
    await list.sync();
    expect(inserted).toBe(true);
    await list.sync();
    expect(list.has(late)).toBe(true);
  });
});
