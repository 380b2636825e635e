import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserSession, call, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The browser session and silent renewal (issue 32, docs/decisions/client-sdk.md "Sessions that outlive a
 * JWT"): an interactive approval of a web client sets an HttpOnly cookie for that client; `prompt=none` with
 * `display=popup` answers a frameable page that posts a fresh user JWT (or `login_required`) to the parent.
 */
let server: TestServer;
let app: Awaited<ReturnType<typeof registerClient>>;
let other: Awaited<ReturnType<typeof registerClient>>;
const WEB = "https://app.example/cb";
const player = { email: randomEmail("renew"), password: "player-password-1" };
let session = "";

const silentParams = (clientId: string, extra: Record<string, string> = {}) => ({
  client_id: clientId,
  redirect_uri: WEB,
  response_type: "code",
  state: "st-silent",
  display: "popup",
  prompt: "none",
  ...extra,
});
async function silent(params: Record<string, string>, cookie?: string) {
  const res = await fetch(`${server.url}/oauth/authorize?${new URLSearchParams(params)}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const html = await res.text();
  const json = /<script type="application\/json" id="slotgate-result">(.*?)<\/script>/s.exec(html)?.[1];
  return {
    res,
    result: json ? (JSON.parse(json) as { targetOrigin: string; message: Record<string, string> }) : undefined,
    setCookies: res.headers.getSetCookie(),
  };
}
const sessionCookie = (setCookies: string[]) => setCookies.find((c) => c.startsWith("slotgate_session_"));

beforeAll(async () => {
  server = await startTestServer();
  app = await registerClient(server.url, { redirect_uris: [WEB] });
  other = await registerClient(server.url, { redirect_uris: [WEB] });
  const params = { client_id: app.client_id, redirect_uri: WEB, response_type: "code", state: "sign-up" };
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
  const res = await browser.submitWithMailbox({ ...params, csrf_token: page.csrf, ...player, decision: "approve", intent: "signup" });
  expect(res.status).toBe(302);
  const set = sessionCookie(res.headers.getSetCookie());
  expect(set).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
  session = set!.split(";")[0]!;
});
afterAll(async () => server?.close());

describe("prompt=none (silent renewal)", () => {
  it("with the browser session: a fresh user JWT posted to the redirect origin only, the page frameable by that origin alone, the session extended", async () => {
    const { res, result, setCookies } = await silent(silentParams(app.client_id), session);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors https://app.example;");
    expect(result?.targetOrigin).toBe("https://app.example");
    expect(result?.message).toMatchObject({ from: "slotgate", type: "success", state: "st-silent" });
    const validated = await call(server.url, "GET", "/v1/oauth/validate", { token: result?.message["data"] });
    expect(validated.json).toMatchObject({ valid: true, client_id: app.client_id, token_use: "user_jwt" });
    expect(sessionCookie(setCookies)).toBeDefined();
  });

  it("without a session, with another client's session, or with a forged one: login_required and no token", async () => {
    const forged = session.replace(/=([^.]+)\./, "=00000000-0000-0000-0000-000000000000.");
    for (const [params, cookie] of [
      [silentParams(app.client_id), undefined],
      [silentParams(other.client_id), session],
      [silentParams(app.client_id), forged],
    ] as const) {
      const { res, result } = await silent(params, cookie);
      expect(res.status).toBe(200);
      expect(result?.message).toMatchObject({ type: "fail", data: "login_required", state: "st-silent" });
    }
  });

  it("needs display=popup and a web redirect URI: otherwise 400 invalid_request naming prompt", async () => {
    const { res } = await silent(silentParams(app.client_id, { display: "page" }), session);
    expect(res.status).toBe(400);
  });

  it("leaves every other authorize page unframeable", async () => {
    const res = await fetch(`${server.url}/oauth/authorize?${new URLSearchParams({ ...silentParams(app.client_id), prompt: "" })}`);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("POST /oauth/logout", () => {
  it("ends the client's browser session (200, the cookie expired); without client_id 400 invalid_request naming it", async () => {
    const res = await fetch(`${server.url}/oauth/logout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: session },
      body: new URLSearchParams({ client_id: app.client_id }).toString(),
    });
    expect([res.status, await res.json()]).toEqual([200, { success: true }]);
    expect(sessionCookie(res.headers.getSetCookie())).toMatch(new RegExp(`^${session.split("=")[0]}=; .*Max-Age=0$`));
    const missing = await call(server.url, "POST", "/oauth/logout", { body: {} });
    expect([missing.status, missing.json["error"]]).toEqual([400, "invalid_request"]);
    expect(missing.json["details"]).toEqual([expect.objectContaining({ path: "client_id" })]);
    const { result } = await silent(silentParams(app.client_id));
    expect(result?.message).toMatchObject({ type: "fail", data: "login_required" });
  });
});
