import type { Queryable } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthorizationCodes, hashCode } from "../../src/oauth/token/authorization-code.js";
import { authorizeCode, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
let client: Awaited<ReturnType<typeof registerClient>>;
beforeAll(async () => {
  server = await startTestServer();
  client = await registerClient(server.url);
});
afterAll(async () => server?.close());

/** The server's database, counting the statements sent through it. */
function counting(db: Queryable): Queryable & { statements: number } {
  const counted = {
    statements: 0,
    query: <R>(sql: string, params?: readonly unknown[]): Promise<R[]> => {
      counted.statements += 1;
      return db.query<R>(sql, params);
    },
  };
  return counted as Queryable & { statements: number };
}

describe("AuthorizationCodes: one batch consumes fresh codes and revokes what replayed ones issued", () => {
  it("redeems three new codes and a replayed one presented in one turn with ONE statement; the replay's token is revoked by it", async () => {
    const fresh = await Promise.all([1, 2, 3].map(() => authorizeCode(server.url, client)));
    const { code: used } = await authorizeCode(server.url, client);
    const first = await exchange(server.url, client, used);
    expect(first.status).toBe(200);
    const [jti] = (await server.sql<{ token_jti: string }>("SELECT token_jti FROM authorization_codes WHERE code_hash = $1", [hashCode(used)])).map(
      (r) => r.token_jti,
    );
    expect(jti).toBeTruthy();

    const db = counting(server.slotgate.services.db);
    const codes = new AuthorizationCodes(db);
    const expiresAt = new Date(Date.now() + 60_000);
    const results = await Promise.all([
      ...fresh.map(({ code }, i) => codes.redeem(hashCode(code), { jti: `fresh-${i}-${Date.now()}`, expiresAt })),
      codes.redeem(hashCode(used), { jti: `replay-${Date.now()}`, expiresAt }),
      codes.redeem(hashCode("never-issued"), { jti: `unknown-${Date.now()}`, expiresAt }),
    ]);

    expect(db.statements).toBe(1);
    for (const result of results.slice(0, 3)) expect(result).toMatchObject({ consumed: { client_id: client.client_id, kind: "oauth" } });
    expect(results[3]).toEqual({ replayedJti: jti });
    expect(results[4]).toBeNull();
    const revoked = await server.sql<{ reason: string }>("SELECT reason FROM revoked_tokens WHERE jti = $1", [jti]);
    expect(revoked).toEqual([{ reason: "code_replayed" }]);
  });

  it("takes a code presented twice in one turn once: the second waits for the next batch and is a replay", async () => {
    const { code } = await authorizeCode(server.url, client);
    const codes = new AuthorizationCodes(server.slotgate.services.db);
    const expiresAt = new Date(Date.now() + 60_000);
    const [a, b] = await Promise.all([
      codes.redeem(hashCode(code), { jti: `a-${Date.now()}`, expiresAt }),
      codes.redeem(hashCode(code), { jti: `b-${Date.now()}`, expiresAt }),
    ]);
    expect(a).toMatchObject({ consumed: { client_id: client.client_id } });
    expect(b).toEqual({ replayedJti: expect.stringMatching(/^a-/) });
  });
});
