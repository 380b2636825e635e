import type { MockService } from "@slotgate/mock-service";
import { SignJWT, generateKeyPair } from "jose";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type SlotgateBackend, SlotgateBackendError } from "../src/index.js";
import { CALLBACK_ROUTES } from "./support/callback-routes.js";
import { type RunningServer, freePort } from "./support/http-server.js";
import { backendFor, captureAuthorize, countRequests, msw, postCallback, simulatedService, startMsw, userJwt } from "./support/simulated-service.js";

let server: RunningServer;
let mock: MockService;
let redirectUri: string;
let backend: SlotgateBackend;
const backends: SlotgateBackend[] = [];

function track(b: SlotgateBackend): SlotgateBackend {
  backends.push(b);
  return b;
}

for (const [route, mount] of Object.entries(CALLBACK_ROUTES)) {
  describe(`callback route: ${route}`, () => {
    beforeAll(async () => {
      startMsw();
      // The callback route is a real node:http server on 127.0.0.1; the simulated service POSTs to it with fetch.
      server = await mount(() => backend);
      redirectUri = `${server.origin}/slotgate/callback`;
    });

    afterEach(async () => {
      msw.events.removeAllListeners();
      await Promise.all(backends.splice(0).map((b) => b.shutdown()));
    });

    afterAll(async () => {
      msw.close();
      await server.close();
    });

    async function fresh(overrides = {}): Promise<SlotgateBackend> {
      mock = await simulatedService(redirectUri);
      backend = track(backendFor(mock, overrides));
      return backend;
    }

    async function rejection(p: Promise<unknown>): Promise<SlotgateBackendError> {
      const err = await p.then(
        () => {
          throw new Error("expected a rejection");
        },
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SlotgateBackendError);
      return err as SlotgateBackendError;
    }

    async function unsignedJwt(claims: Record<string, unknown>): Promise<string> {
      const { privateKey } = await generateKeyPair("ES256");
      return new SignJWT(claims).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
    }

    describe("getSlotInfo against the simulated service", () => {
      it("resolves with slot info once the callback arrived and get_token answered", async () => {
        await fresh();
        const info = await backend.getSlotInfo(await userJwt(mock));
        const user = mock.fixtures.endUser;
        expect(info).toEqual({
          id: user.user_id,
          access_token: expect.any(String),
          content_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          token_nickname: user.nickname,
          tr_cnt: 0,
          code: expect.any(String),
          // the simulated backend client is registered for refresh tokens
          refresh_token: expect.stringMatching(/^sgr_/),
        });
        expect(backend.pendingCount).toBe(0);
        // The access token is one the service accepts.
        const validate = await fetch(`${mock.baseUrl}/v1/oauth/validate`, { headers: { authorization: `Bearer ${info.access_token}` } });
        expect(validate.status).toBe(200);
      });

      it("sends a fresh 256-bit base64url state on every call", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const jwt = await userJwt(mock);
        const calls = [backend.getSlotInfo(jwt, { timeout: 5_000 }), backend.getSlotInfo(jwt, { timeout: 5_000 })];
        while (capture.states.length < 2) await new Promise((r) => setTimeout(r, 5));
        const [a, b] = capture.states;
        expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(b).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(a).not.toBe(b);
        await backend.shutdown();
        await Promise.allSettled(calls);
      });

      it("MISSING_TOKEN (400) when no JWT is given, before any request", async () => {
        await fresh();
        const authorize = countRequests(mock, "/v1/oauth-meta/authorize");
        for (const jwt of [undefined, "", "   ", 42]) {
          const err = await rejection(backend.getSlotInfo(jwt as unknown as string));
          expect(err.code).toBe("missing_token");
          expect(err.status).toBe(400);
        }
        expect(authorize.count).toBe(0);
      });

      it("INVALID_TOKEN (401) for a string that is not a JWT", async () => {
        await fresh();
        const err = await rejection(backend.getSlotInfo("not-a-jwt"));
        expect(err.code).toBe("invalid_token");
        expect(err.status).toBe(401);
      });

      it("EXPIRED_TOKEN (401) is decided locally, without calling the service", async () => {
        await fresh();
        const authorize = countRequests(mock, "/v1/oauth-meta/authorize");
        const expired = await mock.operator.issueExpiredToken({
          user_id: mock.fixtures.endUser.user_id,
          client_id: mock.fixtures.backendClient.client_id,
        });
        const err = await rejection(backend.getSlotInfo(expired));
        expect(err.code).toBe("expired_token");
        expect(err.status).toBe(401);
        expect(err.message).toBe("EXPIRED_TOKEN");
        expect(authorize.count).toBe(0);
      });

      it("AUTHORIZE_ERROR (502) carries the service's code when it refuses the JWT", async () => {
        await fresh();
        // Signed by a key the service does not know: the service answers 401 invalid_token.
        const forged = await unsignedJwt({ sub: "1", exp: Math.floor(Date.now() / 1000) + 600 });
        const err = await rejection(backend.getSlotInfo(forged));
        expect(err.code).toBe("authorize_error");
        expect(err.status).toBe(502);
        expect(err.error).toBe("invalid_token");
        expect(err.serviceStatus).toBe(401);
        expect(err.message).toMatch(/^AUTHORIZE_ERROR: /);
        expect(backend.pendingCount).toBe(0);
      });

      it("AUTHORIZE_ERROR for a JWT issued to another client (token_user_mismatch)", async () => {
        await fresh();
        const jwt = await mock.issueUserJwt(mock.fixtures.endUser.user_id, mock.fixtures.webClient.client_id);
        const err = await rejection(backend.getSlotInfo(jwt));
        expect(err.code).toBe("authorize_error");
        expect(err.error).toBe("token_user_mismatch");
      });

      it("AUTHORIZE_ERROR for an unregistered redirectUri (redirect_uri_mismatch)", async () => {
        await fresh({ redirectUri: `${redirectUri}/` });
        const err = await rejection(backend.getSlotInfo(await userJwt(mock)));
        expect(err.code).toBe("authorize_error");
        expect(err.error).toBe("redirect_uri_mismatch");
      });

      it("AUTHORIZE_ERROR when the service cannot be reached", async () => {
        await fresh();
        const port = await freePort();
        const b = track(backendFor(mock, { authServerUrl: `http://127.0.0.1:${port}` }));
        const err = await rejection(b.getSlotInfo(await userJwt(mock)));
        expect(err.code).toBe("authorize_error");
        expect(err.serviceStatus).toBeUndefined();
        expect(err.cause).toBeDefined();
      });

      it("TOKEN_EXCHANGE_ERROR (502) when get_token refuses the client secret", async () => {
        await fresh({ clientSecret: "wrong-secret-value-that-must-never-leak" });
        const err = await rejection(backend.getSlotInfo(await userJwt(mock)));
        expect(err.code).toBe("token_exchange_error");
        expect(err.status).toBe(502);
        expect(err.error).toBe("invalid_client");
        expect(JSON.stringify(err)).not.toContain("wrong-secret-value");
        expect(err.message).not.toContain("wrong-secret-value");
      });

      it("AUTHORIZE_ERROR when the service answers something other than JSON", async () => {
        await fresh();
        msw.use(http.get(`${mock.baseUrl}/v1/oauth-meta/authorize`, () => new HttpResponse("<html>proxy error</html>", { status: 200 })));
        const err = await rejection(backend.getSlotInfo(await userJwt(mock)));
        expect(err).toMatchObject({ code: "authorize_error", serviceStatus: 200 });
      });

      it("TOKEN_EXCHANGE_ERROR when get_token answers 200 without the slot info fields", async () => {
        await fresh();
        msw.use(http.post(`${mock.baseUrl}/v1/oauth-meta/get_token`, () => HttpResponse.json({ success: true, access_token: "x" })));
        const err = await rejection(backend.getSlotInfo(await userJwt(mock)));
        expect(err).toMatchObject({ code: "token_exchange_error", status: 502, message: "get_token failed: the answer lacks a slot info field" });
      });

      it("CALLBACK_REJECTED (502) when the callback reports success other than 1", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
        const pending = rejection(backend.getSlotInfo(await userJwt(mock)));
        const state = await capture.next();
        const res = await postCallback(redirectUri, { state, success: "0", error: "access_denied" });
        expect(res.status).toBe(200);
        const err = await pending;
        expect(err.code).toBe("callback_rejected");
        expect(err.status).toBe(502);
        expect(err.message).toBe("authorize callback rejected: access_denied");
        expect(err.error).toBe("access_denied");
        expect(getToken.count).toBe(0);
      });

      it("CALLBACK_REJECTED when success=1 comes without a code", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const pending = rejection(backend.getSlotInfo(await userJwt(mock)));
        await postCallback(redirectUri, { state: await capture.next(), success: "1" });
        expect((await pending).code).toBe("callback_rejected");
      });

      it("CALLBACK_TIMEOUT (408) when no callback arrives in time", async () => {
        await fresh();
        captureAuthorize(mock);
        const err = await rejection(backend.getSlotInfo(await userJwt(mock), { timeout: 50 }));
        expect(err.code).toBe("callback_timeout");
        expect(err.status).toBe(408);
        expect(err.message).toBe("authorize callback timeout");
        expect(backend.pendingCount).toBe(0);
      });

      it("a late callback (after the timeout) is answered 200 and ignored: no code exchange", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
        const pending = backend.getSlotInfo(await userJwt(mock), { timeout: 50 });
        const state = await capture.next();
        expect((await rejection(pending)).code).toBe("callback_timeout");
        const res = await postCallback(redirectUri, { state, code: "late-code", success: "1" });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true });
        await new Promise((r) => setTimeout(r, 20));
        expect(getToken.count).toBe(0);
      });

      it("an unknown state is answered 200 and ignored", async () => {
        await fresh();
        const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
        for (const params of [{ state: "A".repeat(43), code: "c", success: "1" }, { state: "bad state!", code: "c", success: "1" }, {}] as Record<
          string,
          string
        >[]) {
          const res = await postCallback(redirectUri, params);
          expect(res.status).toBe(200);
        }
        await new Promise((r) => setTimeout(r, 20));
        expect(getToken.count).toBe(0);
      });

      it("a repeated callback exchanges the code once; the replay is ignored", async () => {
        await fresh();
        const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
        const info = await backend.getSlotInfo(await userJwt(mock));
        const delivered = mock.state.callbacks.at(-1)!;
        // The service's own callback, replayed twice after success, and concurrently.
        const replays = await Promise.all([fetch(delivered.url, { method: "POST" }), fetch(delivered.url, { method: "POST" })]);
        expect(replays.map((r) => r.status)).toEqual([200, 200]);
        await new Promise((r) => setTimeout(r, 20));
        expect(getToken.count).toBe(1);
        expect(info.code).toBe(new URL(delivered.url).searchParams.get("code"));
      });

      it("a duplicate callback arriving during the exchange does not start a second exchange", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
        const jwt = await userJwt(mock);
        const pending = backend.getSlotInfo(jwt);
        const state = await capture.next();
        // A real code for this client and redirect URI: run the service's authorize once more outside the backend.
        msw.resetHandlers(...mock.handlers);
        const code = await realCode(jwt);
        const [a, b] = await Promise.all([postCallback(redirectUri, { state, code, success: "1" }), postCallback(redirectUri, { state, code, success: "1" })]);
        expect([a.status, b.status]).toEqual([200, 200]);
        const info = await pending;
        expect(info.code).toBe(code);
        expect(getToken.count).toBe(1);
      });

      it("SHUTDOWN (503) rejects every pending call at once and refuses new ones", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const jwt = await userJwt(mock);
        const calls = [backend.getSlotInfo(jwt), backend.getSlotInfo(jwt), backend.getSlotInfo(jwt)];
        while (capture.states.length < 3) await new Promise((r) => setTimeout(r, 5));
        expect(backend.pendingCount).toBe(3);
        const settled: string[] = [];
        for (const c of calls) c.catch((e: SlotgateBackendError) => settled.push(e.code));
        const done = backend.shutdown();
        expect(backend.pendingCount).toBe(0);
        await done;
        expect(settled).toEqual(["shutdown", "shutdown", "shutdown"]);
        const after = await rejection(backend.getSlotInfo(jwt));
        expect(after.code).toBe("shutdown");
        expect(after.status).toBe(503);
        expect(after.message).toBe("shutdown");
      });

      it("shutdown leaves no timer behind", async () => {
        await fresh();
        captureAuthorize(mock);
        const jwt = await userJwt(mock);
        const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
        const before = timers();
        const calls = Array.from({ length: 20 }, () => backend.getSlotInfo(jwt, { timeout: 60_000 }).catch(() => undefined));
        expect(timers()).toBeGreaterThanOrEqual(before + 20);
        await backend.shutdown();
        await Promise.all(calls);
        expect(timers()).toBeLessThanOrEqual(before);
      });

      it("ABORTED (499) when the caller's signal fires, and an already aborted signal rejects at once", async () => {
        await fresh();
        const capture = captureAuthorize(mock);
        const jwt = await userJwt(mock);
        const controller = new AbortController();
        const pending = backend.getSlotInfo(jwt, { signal: controller.signal });
        await capture.next();
        controller.abort(new Error("client went away"));
        const err = await rejection(pending);
        expect(err.code).toBe("aborted");
        expect(err.status).toBe(499);
        expect((err.cause as Error).message).toBe("client went away");
        expect(backend.pendingCount).toBe(0);
        const again = await rejection(backend.getSlotInfo(jwt, { signal: AbortSignal.abort() }));
        expect(again.code).toBe("aborted");
      });

      it("INVALID_ARGUMENT for a bad timeout or signal", async () => {
        await fresh();
        const jwt = await userJwt(mock);
        for (const options of [{ timeout: 0 }, { timeout: -1 }, { timeout: Number.NaN }, { timeout: 2 ** 31 }, { signal: {} }]) {
          const err = await rejection(backend.getSlotInfo(jwt, options as never));
          expect(err.code).toBe("invalid_argument");
        }
      });
    });

    /** Obtains a genuine code from the simulated service by running its authorize and reading the callback it records. */
    async function realCode(jwt: string): Promise<string> {
      const before = mock.state.callbacks.length;
      const url = new URL(`${mock.baseUrl}/v1/oauth-meta/authorize`);
      url.search = new URLSearchParams({
        client_id: mock.fixtures.backendClient.client_id,
        redirect_uri: redirectUri,
        state: "X".repeat(43),
      }).toString();
      const res = await fetch(url, { headers: { authorization: `Bearer ${jwt}` } });
      expect(res.status).toBe(200);
      const delivery = mock.state.callbacks[before]!;
      return new URL(delivery.url).searchParams.get("code")!;
    }
  });
}
