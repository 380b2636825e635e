import type { IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { FIXTURES, createMockService } from "@slotgate/mock-service";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Slotgate } from "../src/index.js";
import { type FakePopup, fakePopup, postFromPopup, stubWindowOpen } from "./helpers/fake-popup.js";

// The whole popup round trip against @slotgate/mock-service (the simulated service, MSW): the SDK's
// authorize URL is fetched and submitted as the popup would, and the messages of the service's own popup
// result page are delivered to this window. The JWTs are the mock's real ES256 tokens.

// skipCsrfCheck: under happy-dom, MSW rebuilds requests with happy-dom's Headers, which drop the forbidden
// Cookie header, so this test's popup cannot present the double-submit cookie. The authorize CSRF check is
// the service's and is covered by the conformance suite; the Chromium suites run it with real cookies.
const mock = createMockService({ baseUrl: "https://slotgate.test", faults: { skipCsrfCheck: true } });
const server = setupServer(...mock.handlers);
const client = FIXTURES.webClient;
const options = { slotgateUrl: mock.baseUrl, clientId: client.client_id, redirectUri: client.redirect_uri };

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

interface PopupResultJson {
  targetOrigin: string;
  messages: { from: string; type: string; data: string; state: string }[];
}

/** One request of the popup, made with node:https (MSW intercepts it), outside this document's CORS rules. */
function popupRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = https.request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** What the person does in the popup: load the authorize page, fill the form, press a button. */
async function actInPopup(authorizeUrl: string, decision: "approve" | "deny") {
  const page = await popupRequest(authorizeUrl, { headers: { accept: "text/html" } });
  expect(page.status).toBe(200);
  const form = new URLSearchParams();
  for (const input of page.body.match(/<input[^>]*type="hidden"[^>]*>/g) ?? []) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    const value = /value="([^"]*)"/.exec(input)?.[1] ?? "";
    if (name) form.set(name, value.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, "&"));
  }
  form.set("email", FIXTURES.endUser.email);
  form.set("password", FIXTURES.endUser.password);
  form.set("decision", decision);
  const result = await popupRequest(`${mock.baseUrl}/oauth/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
    body: form.toString(),
  });
  const json = /<script type="application\/json" id="slotgate-result">([^<]*)<\/script>/.exec(result.body)?.[1];
  return { status: result.status, result: json ? (JSON.parse(json) as PopupResultJson) : undefined };
}

/** The popup result page's script: every message to the opener, with the page's targetOrigin. */
function deliver(result: PopupResultJson, popup: FakePopup): void {
  for (const message of result.messages) postFromPopup(message, mock.baseUrl, popup);
}

describe("against the simulated service (@slotgate/mock-service)", () => {
  it("approve: login() resolves the service's JWT, isLoggedIn() is true, logout() revokes it on the service", async () => {
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const slotgate = new Slotgate(options);
    const login = slotgate.login();
    const { result } = await actInPopup(String(open.mock.calls[0]?.[0]), "approve");
    expect(result?.targetOrigin).toBe(new URL(client.redirect_uri).origin);
    expect(result?.messages.map((m) => m.from)).toEqual(["slotgate", "gameauth"]);
    deliver(result as PopupResultJson, popup);
    const { jwt } = await login;
    expect(jwt).toBe(result?.messages[0]?.data);
    expect(slotgate.isLoggedIn()).toBe(true);

    const validate = () => fetch(`${mock.baseUrl}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } });
    expect((await validate()).status).toBe(200);
    await slotgate.logout();
    expect(slotgate.getToken()).toBeNull();
    expect((await validate()).status).toBe(401);
  });

  it("deny: login() rejects 'Login failed: access_denied'", async () => {
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const login = new Slotgate(options).login();
    login.catch(() => {});
    const { result } = await actInPopup(String(open.mock.calls[0]?.[0]), "deny");
    deliver(result as PopupResultJson, popup);
    await expect(login).rejects.toMatchObject({ code: "login_failed", message: "Login failed: access_denied" });
  });

  it("the authorize URL the SDK builds passes the service's own validation (no ERR_MISSING_PARAMS)", async () => {
    const open = stubWindowOpen(fakePopup());
    new Slotgate(options).login({ state: "explicit-state" }).catch(() => {});
    const url = new URL(String(open.mock.calls[0]?.[0]));
    const res = await fetch(url, { headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    for (const param of ["client_id", "redirect_uri", "response_type", "state"]) {
      const without = new URL(url);
      without.searchParams.delete(param);
      const missing = await fetch(without, { headers: { accept: "application/json" } });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: string }).error).toBe("ERR_MISSING_PARAMS");
    }
  });

  it("a redirectUri the client did not register is refused by the service (redirect_uri_mismatch)", async () => {
    const open = stubWindowOpen(fakePopup());
    new Slotgate({ ...options, redirectUri: `${client.redirect_uri}/` }).login().catch(() => {});
    const res = await fetch(String(open.mock.calls[0]?.[0]), { headers: { accept: "application/json" } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("redirect_uri_mismatch");
  });

  it("logout() never throws when the service refuses the revoke (token already revoked)", async () => {
    const jwt = await mock.issueUserJwt(FIXTURES.endUser.user_id, client.client_id);
    localStorage.setItem("slotgate_access_token", jwt);
    await new Slotgate(options).logout();
    localStorage.setItem("slotgate_access_token", jwt);
    await expect(new Slotgate(options).logout()).resolves.toBeUndefined();
  });
});
