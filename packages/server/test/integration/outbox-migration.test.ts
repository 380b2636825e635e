import { migrate } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateServer, SERVER_MIGRATIONS } from "../../src/platform/migrations.js";
import { openTestDatabase } from "../support/harness.js";

/**
 * Migration 9 moves callback codes out of `outbox.target_url`: finished callbacks written by an
 * earlier version lose the code they kept in clear; a pending one keeps it (it is still to be
 * delivered, unsealed, as before) and other topics are untouched.
 */
let opened: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  opened = await openTestDatabase();
  await migrate(opened.db, { ...SERVER_MIGRATIONS, migrations: SERVER_MIGRATIONS.migrations.filter((m) => m.version <= 7) });
});
afterAll(async () => {
  await opened?.db.close();
  await opened?.drop();
});

describe("server migration 9: outbox secrets sealed at rest", () => {
  it("strips the code from finished callbacks, keeps pending ones and other topics as they were", async () => {
    const { db } = opened;
    const insert = async (topic: string, url: string, finished: "delivered" | "failed" | null) =>
      (
        await db.query<{ id: string }>(
          `INSERT INTO outbox (topic, target_url, payload, max_attempts, delivered_at, failed_at) VALUES ($1, $2, '{}', 6, $3, $4) RETURNING id::text`,
          [topic, url, finished === "delivered" ? new Date() : null, finished === "failed" ? new Date() : null],
        )
      )[0]!.id;
    const delivered = await insert("oauth_meta.callback", "https://b.example/cb?code=RAWCODE1&state=s1&success=1", "delivered");
    const failed = await insert("oauth_meta.callback", "https://b.example/cb?tenant=7&code=RAWCODE2&state=s2&success=1", "failed");
    const pending = await insert("oauth_meta.callback", "https://b.example/cb?code=RAWCODE3&state=s3&success=1", null);
    const webhook = await insert("marketplace.login_status", "https://m.example/hook?code=keep", "delivered");

    expect(await migrateServer(db)).toContain(9);
    const url = async (id: string) =>
      (await db.query<{ target_url: string; sealed_query: string | null }>("SELECT target_url, sealed_query FROM outbox WHERE id = $1", [id]))[0]!;
    expect(await url(delivered)).toEqual({ target_url: "https://b.example/cb?state=s1&success=1", sealed_query: null });
    expect((await url(failed)).target_url).toBe("https://b.example/cb?tenant=7&state=s2&success=1");
    expect((await url(pending)).target_url).toBe("https://b.example/cb?code=RAWCODE3&state=s3&success=1");
    expect((await url(webhook)).target_url).toBe("https://m.example/hook?code=keep");
  });
});
