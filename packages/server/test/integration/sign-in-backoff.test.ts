import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, BrowserSession, call, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Per-account backoff of password sign-in (issue 15, docs/decisions/brute-force.md), on two server
 * instances sharing one database: 2 free failures, then waits of 2 and 4 s, then a 60 s lock at the 5th.
 * Waiting is done by moving the account's `blocked_until` to now in the database (the clock is the
 * database's), never by sleeping.
 */
const BACKOFF = { SIGN_IN_FREE_FAILURES: "2", SIGN_IN_LOCK_AFTER_FAILURES: "5", SIGN_IN_LOCK_SECONDS: "60" };
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startTestServer(BACKOFF);
  b = await startTestServer(BACKOFF, undefined, { shareDatabaseOf: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const login = (server: TestServer, email: string, password: string) => call(server.url, "POST", "/v1/dev-user/login_devuser", { body: { email, password } });

/** Lets the account's current wait pass. */
const waitPasses = () => a.sql("UPDATE sign_in_attempts SET blocked_until = now()");

/** The wait the database recorded after the last counted attempt, in seconds. */
async function recordedWait(): Promise<number[]> {
  const rows = await a.sql<{ s: string }>("SELECT round(extract(epoch FROM blocked_until - updated_at))::text AS s FROM sign_in_attempts ORDER BY s");
  return rows.map((r) => Number(r.s));
}

function expectThrottled(res: Awaited<ReturnType<typeof login>>, locked: boolean, maxWait: number): number {
  expect([res.status, res.json["error"]]).toEqual([429, "sign_in_throttled"]);
  const retry = Number(res.headers.get("retry-after"));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(maxWait);
  expect(res.json["details"]).toEqual([
    { path: "retry_after_seconds", message: String(retry) },
    { path: "locked", message: String(locked) },
  ]);
  expect(String(res.json["message"])).toContain(locked ? "locked for 60 seconds" : "before the next try");
  expect(String(res.json["message"])).toContain(`${retry} second`);
  return retry;
}

describe("developer login backoff, shared by two instances on one database", () => {
  it("2 free failures, then 2 s and 4 s waits, then a lock at the 5th on both instances (the right password included); a right password after the lock resets it", async () => {
    await a.sql("DELETE FROM sign_in_attempts");
    const email = randomEmail("dev");
    const signup = await call(a.url, "POST", "/v1/dev-user/signup", { body: { email, password: "right-password-1" } });
    expect(signup.status).toBe(201);

    expect((await login(a, email, "wrong-password-1")).json["error"]).toBe("invalid_credentials");
    expect((await login(b, email, "wrong-password-2")).json["error"], "the second instance counts on the same row").toBe("invalid_credentials");
    expect(await recordedWait(), "two failures are free").toEqual([0]);

    expect((await login(a, email, "wrong-password-3")).status, "the third failure is still checked").toBe(401);
    expect(await recordedWait(), "and makes the next try wait 2 s").toEqual([2]);
    expectThrottled(await login(b, email, "right-password-1"), false, 2);

    await waitPasses();
    expect((await login(b, email, "wrong-password-4")).status).toBe(401);
    expect(await recordedWait(), "the wait doubles").toEqual([4]);
    expectThrottled(await login(a, email, "wrong-password-5"), false, 4);

    await waitPasses();
    expect((await login(a, email, "wrong-password-5")).status).toBe(401);
    expect(await recordedWait(), "the fifth failure locks for SIGN_IN_LOCK_SECONDS").toEqual([60]);
    expectThrottled(await login(b, email, "right-password-1"), true, 60);
    expectThrottled(await login(a, email, "right-password-1"), true, 60);

    await waitPasses();
    const ok = await login(b, email, "right-password-1");
    expect(ok.status, "after the lock, the right password signs in").toBe(200);
    expect(await recordedWait(), "and clears the account's record").toEqual([]);
    expect((await login(a, email, "wrong-password-6")).status, "the count starts over: the next failure is free").toBe(401);
    expect((await login(a, email, "right-password-1")).status).toBe(200);
  });

  it("a failure after the lock ran out locks again at once", async () => {
    await a.sql("DELETE FROM sign_in_attempts");
    const email = randomEmail("dev");
    expect((await call(a.url, "POST", "/v1/dev-user/signup", { body: { email, password: "right-password-1" } })).status).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      await waitPasses();
      expect((await login(i % 2 ? a : b, email, `wrong-${i}-password`)).status).toBe(401);
    }
    await waitPasses();
    expect((await login(a, email, "wrong-again-password")).status).toBe(401);
    expectThrottled(await login(b, email, "right-password-1"), true, 60);
  });

  it("an unknown email goes through the same steps as a known one, so the answers reveal no account", async () => {
    await a.sql("DELETE FROM sign_in_attempts");
    const known = randomEmail("dev");
    expect((await call(a.url, "POST", "/v1/dev-user/signup", { body: { email: known, password: "right-password-1" } })).status).toBe(201);
    const unknown = randomEmail("nobody");
    const trace = async (email: string) => {
      const seen: Array<[number, unknown]> = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await login(i % 2 ? a : b, email, "wrong-password-x");
        seen.push([res.status, res.json["error"]]);
      }
      return seen;
    };
    const expected = [
      [401, "invalid_credentials"],
      [401, "invalid_credentials"],
      [401, "invalid_credentials"],
      [429, "sign_in_throttled"],
    ];
    expect(await trace(known)).toEqual(expected);
    expect(await trace(unknown)).toEqual(expected);
    const stored = await a.sql<{ account: string }>("SELECT account FROM sign_in_attempts");
    expect(stored.map((r) => r.account).join(" "), "addresses are stored only as SHA-256").not.toMatch(/@/);
  });

  it("malformed login bodies are 4xx with a stable code and count nothing", async () => {
    await a.sql("DELETE FROM sign_in_attempts");
    const cases: Array<[unknown, number, string]> = [
      ["{oops", 400, "malformed_json"],
      [{ email: "not-an-email", password: "whatever-123" }, 400, "invalid_request"],
      [{ email: randomEmail(), password: 12345678 }, 400, "invalid_request"],
      [{ email: randomEmail(), password: "x".repeat(10_000) }, 400, "invalid_request"],
    ];
    for (const [body, status, error] of cases) {
      const res = await call(b.url, "POST", "/v1/dev-user/login_devuser", { body });
      expect([res.status, res.json["error"]]).toEqual([status, error]);
    }
    expect(await a.sql("SELECT 1 FROM sign_in_attempts")).toEqual([]);
  });
});

describe("end-user password sign-in on the authorize page", () => {
  it("shows the wait on the form with 429 and Retry-After, on either instance; the right password after the lock signs in", async () => {
    await a.sql("DELETE FROM sign_in_attempts");
    const client = await registerClient(a.url);
    const { email, password } = await authorizeCode(a.url, client);
    const params = { client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, response_type: "code", state: "s-1" };
    const attempt = async (server: TestServer, pw: string) => {
      const browser = new BrowserSession(server.url);
      const page = await browser.open(params);
      return browser.submit({ ...params, csrf_token: page.csrf, email, password: pw, decision: "approve" });
    };
    for (let i = 0; i < 5; i += 1) {
      await waitPasses();
      expect((await attempt(i % 2 ? a : b, "wrong-password-123")).status).toBe(401);
    }
    const locked = await attempt(a, password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(1);
    expect(locked.html).toMatch(/Too many wrong passwords for this account: sign-in is locked for 60 seconds\. Try again in \d+ seconds/);
    await waitPasses();
    const ok = await attempt(b, password);
    expect(ok.status, "the right password after the lock goes on to the redirect").toBe(302);
  });
});

describe("end-user password sign-in on the device verification page", () => {
  it("shows the lock on the form with 429 and Retry-After (the device stays pending)", async () => {
    await a.sql("DELETE FROM sign_in_attempts");
    const registered = await registerClient(a.url, { grant_types: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"] });
    const { email, password } = await authorizeCode(a.url, registered);
    const started = await call(a.url, "POST", "/oauth/device_authorization", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: registered.client_id, client_secret: registered.client_secret }).toString(),
    });
    expect(started.status).toBe(200);
    const userCode = String(started.json["user_code"]);
    const attempt = async (server: TestServer, pw: string) => {
      const form = await fetch(`${server.url}/oauth/device?user_code=${userCode}`, { headers: { accept: "text/html" } });
      const cookie = form.headers.get("set-cookie")!.split(";")[0]!;
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(await form.text())![1]!;
      const res = await fetch(`${server.url}/oauth/device`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, accept: "text/html" },
        body: new URLSearchParams({ user_code: userCode, csrf_token: csrf, email, password: pw, decision: "approve" }),
      });
      return { status: res.status, retryAfter: res.headers.get("retry-after"), html: await res.text() };
    };
    for (let i = 0; i < 5; i += 1) {
      await waitPasses();
      expect((await attempt(i % 2 ? a : b, "wrong-password-123")).status).toBe(401);
    }
    const locked = await attempt(b, password);
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(1);
    expect(locked.html).toContain("Too many wrong passwords for this account: sign-in is locked for 60 seconds.");
    const pending = await a.sql<{ n: string }>("SELECT count(*)::text AS n FROM device_authorizations WHERE user_code = $1 AND status = 'pending'", [
      userCode.replace("-", ""),
    ]);
    expect(pending[0]!.n, "the device authorization was not decided").toBe("1");
  });
});
