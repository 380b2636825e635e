import type { MockService } from "@slotgate/mock-service";
import { http, HttpResponse } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FetchLike, type Logger, SlotgateBackend } from "../src/index.js";
import { backendFor, msw, simulatedService, startMsw } from "./support/simulated-service.js";

let mock: MockService;
let accessToken: string;
let userId: string;

beforeAll(() => startMsw());
afterAll(() => msw.close());
beforeEach(async () => {
  mock = await simulatedService("http://127.0.0.1:9/unused");
  userId = mock.fixtures.endUser.user_id;
  accessToken = await mock.issueAccessToken(userId, mock.fixtures.backendClient.client_id);
});

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string, f?: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(f ?? {})}`);
  return { lines, debug: push, warn: push, error: push };
}

describe("statusLogin / statusLogout against the simulated service (spec 4.6)", () => {
  it("records login then logout; logout enables transfer", async () => {
    const backend = backendFor(mock);
    const login = await backend.statusLogin({ accessToken, userId });
    expect(login).toMatchObject({ ok: true, attempts: 1, response: { status: "logged_in", user_id: userId } });
    const check = async () =>
      (
        await fetch(`${mock.baseUrl}/v1/oauth/status/check?user_id=${userId}&client_id=${mock.fixtures.backendClient.client_id}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json();
    expect(await check()).toMatchObject({ status: "logged_in", transfer_enabled: false });
    const logout = await backend.statusLogout({ accessToken, userId });
    expect(logout).toMatchObject({ ok: true, attempts: 1, response: { status: "logged_out", transfer_enabled: true } });
    expect(await check()).toMatchObject({ status: "logged_out", transfer_enabled: true });
  });

  it("statusCheck reads the status and transfer eligibility; throws SERVICE_ERROR for another user's token", async () => {
    const backend = backendFor(mock);
    expect(await backend.statusCheck({ accessToken, userId })).toMatchObject({ status: "logged_out", transfer_enabled: true, timestamp: null });
    await backend.statusLogin({ accessToken, userId });
    expect(await backend.statusCheck({ accessToken, userId })).toMatchObject({ status: "logged_in", transfer_enabled: false });
    const err = await backend.statusCheck({ accessToken, userId: "999999" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "service_error", error: "token_user_mismatch", serviceStatus: 403 });
    await expect(backend.statusCheck({ accessToken: "", userId })).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("retries a 503 with exponential backoff and succeeds on the third attempt", async () => {
    let calls = 0;
    msw.use(
      http.post(`${mock.baseUrl}/v1/oauth/status/login`, () => {
        calls++;
        return calls < 3 ? HttpResponse.json({ success: false, error: "service_unavailable", message: "m" }, { status: 503 }) : undefined;
      }),
    );
    const sleeps: number[] = [];
    const backend = backendFor(mock, { statusSync: { sleep: async (ms) => void sleeps.push(ms) } });
    const r = await backend.statusLogin({ accessToken, userId });
    expect(r).toMatchObject({ ok: true, attempts: 3 });
    expect(sleeps).toEqual([250, 500]);
  });

  it("gives up after 3 attempts without throwing, and logs each failure without the token", async () => {
    const logger = recordingLogger();
    let calls = 0;
    const failing: FetchLike = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const sleeps: number[] = [];
    const backend = backendFor(mock, { fetch: failing, logger, statusSync: { baseDelayMs: 100, sleep: async (ms) => void sleeps.push(ms) } });
    const r = await backend.statusLogout({ accessToken, userId });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.attempts).toBe(3);
    expect(r.error.code).toBe("network_error");
    expect(calls).toBe(3);
    expect(sleeps).toEqual([100, 200]);
    expect(logger.lines).toHaveLength(4);
    expect(logger.lines.join("\n")).not.toContain(accessToken);
  });

  it("does not retry a final 4xx answer (a token of another user: token_user_mismatch)", async () => {
    const backend = backendFor(mock, { statusSync: { sleep: async () => {} } });
    const r = await backend.statusLogin({ accessToken, userId: "999999" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.attempts).toBe(1);
    expect(r.error.code).toBe("service_error");
    expect(r.error.error).toBe("token_user_mismatch");
    expect(r.error.serviceStatus).toBe(403);
  });

  it("returns INVALID_ARGUMENT instead of throwing for bad arguments", async () => {
    const backend = backendFor(mock);
    for (const args of [undefined, {}, { accessToken: "", userId: "1" }, { accessToken: "t", userId: 1 }]) {
      const r = await backend.statusLogin(args as never);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("invalid_argument");
      expect(r.attempts).toBe(0);
    }
  });

  it("stops retrying when the signal aborts during the backoff", async () => {
    const controller = new AbortController();
    const backend = backendFor(mock, {
      fetch: async () => new Response("{}", { status: 502 }),
      statusSync: {
        sleep: async () => {
          controller.abort();
          throw new Error("aborted");
        },
      },
    });
    const r = await backend.statusLogin({ accessToken, userId, signal: controller.signal });
    expect(r).toMatchObject({ ok: false, attempts: 1, error: { code: "aborted" } });
  });

  it("the default sleep really waits and honours the signal", async () => {
    const backend = new SlotgateBackend({
      authServerUrl: mock.baseUrl,
      clientId: mock.fixtures.backendClient.client_id,
      clientSecret: "s",
      redirectUri: "http://127.0.0.1:9/cb",
      logger: recordingLogger(),
      fetch: async () => new Response("{}", { status: 500 }),
      statusSync: { baseDelayMs: 1 },
    });
    const r = await backend.statusLogin({ accessToken, userId });
    expect(r).toMatchObject({ ok: false, attempts: 3, error: { code: "service_error", serviceStatus: 500 } });
  });
});
