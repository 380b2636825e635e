import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type GameSdkBridgeErrorCode, type LoginResult, login } from "../src/index.js";
import { type Authorize, approveWithCode, idleBrowser, isListening, redirectingBrowser, SAMPLE_JWT, tokenEndpoint } from "./helpers/fake-browser.js";

const config = { ClientId: "game-1", RedirectUri: "http://127.0.0.1:0/callback" };

function expectFailure(result: LoginResult, code: GameSdkBridgeErrorCode): void {
  expect(result.Success).toBe(false);
  expect(result.success).toBe(false);
  expect(result.Jwt).toBeNull();
  expect(result.ErrorCode).toBe(code);
  expect(result.errorCode).toBe(code);
  expect(result.ErrorMessage).toBe(result.errorMessage);
  expect(result.ErrorMessage?.length ?? 0).toBeGreaterThan(10);
}

async function failWith(makeQuery: (authorize: Authorize) => string, fetch?: typeof globalThis.fetch) {
  const browser = redirectingBrowser(makeQuery);
  const result = await login(config, { openBrowser: browser.openBrowser, ...(fetch ? { fetch } : {}) });
  const page = await browser.page;
  const authorize = browser.opened[0]!;
  expect(await isListening(authorize.port)).toBe(false);
  return { result, page, authorize };
}

describe("login failures over real HTTP on 127.0.0.1", () => {
  it("refuses a redirect with the wrong state, shows a failure page and never returns its jwt", async () => {
    const { result, page } = await failWith(() => new URLSearchParams({ jwt: SAMPLE_JWT, state: "forged" }).toString());
    expectFailure(result, "state_mismatch");
    expect(result.ErrorMessage).toContain("state");
    expect(result.ErrorMessage).not.toContain(SAMPLE_JWT);
    expect(page.status).toBe(400);
    expect(page.body).toContain("Sign-in failed");
    expect(page.body).not.toContain(SAMPLE_JWT);
  });

  it("refuses a redirect without state", async () => {
    const { result } = await failWith(() => `jwt=${SAMPLE_JWT}`);
    expectFailure(result, "state_mismatch");
  });

  it("refuses a redirect that repeats the state parameter", async () => {
    const { result } = await failWith(({ state }) => `jwt=${SAMPLE_JWT}&state=${state}&state=${state}`);
    expectFailure(result, "state_mismatch");
  });

  it("fails with missing_jwt when the redirect carries the state but neither a code nor a jwt", async () => {
    const { result, page } = await failWith(({ state }) => `state=${state}`);
    expectFailure(result, "missing_jwt");
    expect(page.status).toBe(400);
    expect(page.body).toContain("neither a code nor a jwt");
  });

  it("refuses a redirect with two codes, or a code and a jwt, without redeeming anything", async () => {
    const token = tokenEndpoint();
    for (const query of [(a: Authorize) => `code=a&code=b&state=${a.state}`, (a: Authorize) => `code=a&jwt=${SAMPLE_JWT}&state=${a.state}`]) {
      const { result } = await failWith(query, token.fetch);
      expectFailure(result, "missing_jwt");
    }
    expect(token.requests).toHaveLength(0);
  });

  it("a code Slotgate refuses (invalid_grant) is authorization_error, shown on the failure page; nothing of the code leaks", async () => {
    const token = tokenEndpoint({
      status: 400,
      body: { success: false, error: "invalid_grant", message: "The authorization code is unknown, expired, already used." },
    });
    const { result, page } = await failWith(approveWithCode("secret-code-1"), token.fetch);
    expectFailure(result, "authorization_error");
    expect(result.ErrorMessage).toBe("Slotgate refused the sign-in code (invalid_grant): The authorization code is unknown, expired, already used.");
    expect(page.status).toBe(400);
    expect(page.body).toContain("invalid_grant");
    expect(page.body).not.toContain("secret-code-1");
  });

  it("a client Slotgate does not redeem codes for without a secret (invalid_client) is invalid_config saying how to register", async () => {
    const token = tokenEndpoint({ status: 401, body: { success: false, error: "invalid_client", message: "Unknown client_id or wrong client_secret." } });
    const { result } = await failWith(approveWithCode(), token.fetch);
    expectFailure(result, "invalid_config");
    expect(result.ErrorMessage).toContain("Register the game as a public client");
  });

  it("an unreachable token endpoint is network_error; an answer without a JWT is missing_jwt", async () => {
    const unreachable: typeof globalThis.fetch = async () => {
      throw new TypeError("fetch failed");
    };
    expectFailure((await failWith(approveWithCode(), unreachable)).result, "network_error");
    expectFailure((await failWith(approveWithCode(), tokenEndpoint({ body: { access_token: "opaque" } }).fetch)).result, "missing_jwt");
  });

  it("a redemption still running at the timeout is aborted; the login ends with timeout and the listener closes", async () => {
    const token = tokenEndpoint({ hang: true });
    const browser = redirectingBrowser(approveWithCode());
    // The page never comes: the listener drops the browser's connection when the login ends.
    const result = await login(config, { openBrowser: (url) => void browser.openBrowser(url).catch(() => {}), fetch: token.fetch, timeoutMs: 300 });
    expectFailure(result, "timeout");
    expect(token.requests).toHaveLength(1);
    expect(token.requests[0]!.signal?.aborted).toBe(true);
    expect(await isListening(browser.opened[0]!.port)).toBe(false);
  });

  it("fails with missing_jwt when the jwt is not JWT-shaped", async () => {
    const { result } = await failWith(({ state }) => `jwt=not-a-jwt&state=${state}`);
    expectFailure(result, "missing_jwt");
  });

  it("reports a denial redirect as access_denied with the server's description", async () => {
    const { result, page } = await failWith(({ state }) =>
      new URLSearchParams({ error: "access_denied", error_description: "The user denied the request", state }).toString(),
    );
    expectFailure(result, "access_denied");
    expect(result.ErrorMessage).toBe("Sign-in was declined (access_denied: The user denied the request).");
    expect(page.body).toContain("The user denied the request");
  });

  it("reports another OAuth error as authorization_error", async () => {
    const { result } = await failWith(({ state }) => new URLSearchParams({ error: "server_error", state }).toString());
    expectFailure(result, "authorization_error");
    expect(result.ErrorMessage).toContain("server_error");
  });

  it("escapes the server's error text in the page and strips control characters from the message", async () => {
    const { result, page } = await failWith(({ state }) =>
      new URLSearchParams({ error: "invalid_request", error_description: "<script>alert(1)</script>\r\nX", state }).toString(),
    );
    expect(page.body).not.toContain("<script>alert(1)</script>");
    expect(page.body).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(result.ErrorMessage).not.toMatch(/[\r\n]/);
  });

  it("times out with TIMEOUT and closes the listener when no redirect arrives", async () => {
    const browser = idleBrowser();
    const result = await login(config, { openBrowser: browser.openBrowser, timeoutMs: 50 });
    expectFailure(result, "timeout");
    expect(await isListening(browser.opened[0]!.port)).toBe(false);
  });

  it("ends with cancelled and closes the listener when the AbortSignal fires while waiting", async () => {
    const controller = new AbortController();
    const browser = idleBrowser();
    const pending = login(config, {
      signal: controller.signal,
      openBrowser: (url) => {
        browser.openBrowser(url);
        setImmediate(() => controller.abort());
      },
    });
    const result = await pending;
    expectFailure(result, "cancelled");
    expect(await isListening(browser.opened[0]!.port)).toBe(false);
  });

  it("ends with cancelled without listening or opening a browser when the signal is already aborted", async () => {
    const browser = idleBrowser();
    const result = await login(config, { signal: AbortSignal.abort(), openBrowser: browser.openBrowser });
    expectFailure(result, "cancelled");
    expect(browser.opened).toHaveLength(0);
  });

  describe("port already in use", () => {
    let blocker: Server | undefined;
    afterEach(async () => {
      await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
      blocker = undefined;
    });

    it("gives port_in_use naming the port, and never opens the browser", async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker!.listen(0, "127.0.0.1", resolve));
      const { port } = blocker.address() as { port: number };
      const browser = idleBrowser();
      const result = await login({ ClientId: "game-1", RedirectUri: `http://127.0.0.1:${port}/callback` }, { openBrowser: browser.openBrowser });
      expectFailure(result, "port_in_use");
      expect(result.ErrorMessage).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(browser.opened).toHaveLength(0);
    });
  });

  it("gives browser_open_failed and closes the listener when the opener throws, without repeating its message", async () => {
    let port = 0;
    const result = await login(config, {
      openBrowser: (url) => {
        port = Number(new URL(new URL(url).searchParams.get("redirect_uri")!).port);
        throw new Error(`cannot open ${url}`);
      },
    });
    expectFailure(result, "browser_open_failed");
    expect(result.ErrorMessage).not.toContain("state=");
    expect(await isListening(port)).toBe(false);
  });

  it("gives browser_open_failed when an async opener rejects", async () => {
    const result = await login(config, { openBrowser: async () => Promise.reject(new Error("no display")) });
    expectFailure(result, "browser_open_failed");
  });
});
