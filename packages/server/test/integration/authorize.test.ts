import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserSession, exchange, pkce, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
let client: Awaited<ReturnType<typeof registerClient>>;
/** Confidential native clients (spec 4.14): their `http://127.0.0.1:{port}/callback` is the loopback JWT redirect. */
const natives: Record<"game" | "desktop", Awaited<ReturnType<typeof registerClient>>> = {} as never;
const WEB = "https://app.example/callback?tab=1";
/** On the web client: a web app run locally, an ordinary redirect URI (a code, or the popup result). */
const LOOPBACK = "http://127.0.0.1:53682/callback";
const GAME_LOOPBACK = "http://127.0.0.1:53683/callback";

beforeAll(async () => {
  server = await startTestServer();
  client = await registerClient(server.url, { redirect_uris: [WEB, LOOPBACK, "https://popup.example:8443/done"] });
  natives.game = await registerClient(server.url, { platform: "game", redirect_uris: [GAME_LOOPBACK] });
  natives.desktop = await registerClient(server.url, { platform: "desktop", redirect_uris: [GAME_LOOPBACK] });
});
afterAll(async () => server?.close());

const base = () => ({ client_id: client.client_id, redirect_uri: WEB, response_type: "code", state: "st-123" });
const codes = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM authorization_codes"))[0]!.n);
const get = (params: Record<string, string>, accept = "application/json") =>
  fetch(`${server.url}/oauth/authorize?${new URLSearchParams(params)}`, { headers: { accept }, redirect: "manual" });

describe("GET /oauth/authorize validation", () => {
  it.each(["client_id", "redirect_uri", "response_type", "state"])("answers 400 ERR_MISSING_PARAMS without %s (absent or empty)", async (name) => {
    for (const value of [undefined, ""]) {
      const params: Record<string, string> = base();
      if (value === undefined) delete params[name];
      else params[name] = value;
      const res = await get(params);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(((await res.json()) as { error: string }).error).toBe("ERR_MISSING_PARAMS");
    }
  });

  it("answers 401 invalid_client for an unknown client, never redirecting", async () => {
    const res = await get({ ...base(), client_id: "sg_000000000000000000000000" });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
  });

  it.each([
    ["an unregistered URI", "https://evil.example/callback"],
    ["a trailing-slash variant", "https://app.example/callback/?tab=1"],
    ["a different query", "https://app.example/callback?tab=2"],
    ["another loopback port", "http://127.0.0.1:1/callback"],
  ])("answers 401 redirect_uri_mismatch for %s and never redirects there", async (_n, uri) => {
    const res = await get({ ...base(), redirect_uri: uri });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    expect(((await res.json()) as { error: string }).error).toBe("redirect_uri_mismatch");
  });

  it("answers 400 unsupported_response_type for response_type=token", async () => {
    const res = await get({ ...base(), response_type: "token" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("unsupported_response_type");
  });

  it("answers an HTML error page with the same status when the browser asks for HTML", async () => {
    const res = await get({ ...base(), client_id: "sg_unknown" }, "text/html");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain('data-code="invalid_client"');
  });

  it("rejects a repeated parameter and a bad PKCE method with 400 invalid_request", async () => {
    const repeated = await fetch(`${server.url}/oauth/authorize?${new URLSearchParams(base())}&state=again`, { headers: { accept: "application/json" } });
    expect(repeated.status).toBe(400);
    const plain = await get({ ...base(), code_challenge: "a".repeat(43), code_challenge_method: "plain" });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("renders the sign-in form with every given param hidden, a CSRF token and the csrf cookie; unknown params ignored", async () => {
    const res = await get({ ...base(), display: "page", foo: "bar" }, "text/html");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/oauth/authorize" id="email-form">');
    for (const [k, v] of Object.entries({ ...base(), display: "page" })) {
      // The renderer escapes `&`, `<` and `"` in attribute values; `=` is left as it is.
      expect(html).toContain(`name="${k}" value="${v.replace(/&/g, "&amp;")}"`);
    }
    expect(html).not.toContain('name="foo"');
    expect(html).toMatch(/name="email"/);
    expect(html).toMatch(/name="password"/);
    expect(html).toContain('name="decision" value="approve"');
    expect(html).toContain('name="decision" value="deny"');
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^slotgate_csrf=[A-Za-z0-9_-]{43}; Path=\/oauth; HttpOnly; SameSite=Lax/);
    const token = /name="csrf_token" value="([^"]+)"/.exec(html)![1];
    expect(cookie).toContain(`slotgate_csrf=${token}`);
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self' https://app.example");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("POST /oauth/authorize", () => {
  it("refuses a missing or mismatched CSRF token with 403 csrf_failed and creates nothing", async () => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const before = await codes();
    const fields = { ...base(), email: randomEmail(), password: "user-password-1", decision: "approve", intent: "signup" };
    const none = await browser.submit(fields);
    expect(none.status).toBe(403);
    expect(none.html).toContain("csrf_failed");
    const wrong = await browser.submit({ ...fields, csrf_token: "x".repeat(43) });
    expect(wrong.status).toBe(403);
    const noCookie = await browser.submit({ ...fields, csrf_token: page.csrf }, "");
    expect(noCookie.status).toBe(403);
    expect(await codes()).toBe(before);
    const users = await server.sql("SELECT 1 FROM end_users WHERE email = $1", [fields.email]);
    expect(users).toHaveLength(0);
  });

  it("re-validates the authorize params on POST (unregistered redirect_uri: 401, no redirect)", async () => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const res = await browser.submit({ ...base(), redirect_uri: "https://evil.example/cb", csrf_token: page.csrf, decision: "deny" });
    expect(res.status).toBe(401);
    expect(res.location).toBeNull();
  });

  it("signs up, approves and redirects with code and state (appending to an existing query)", async () => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const res = await browser.submitWithMailbox({
      ...base(),
      csrf_token: page.csrf,
      email: randomEmail(),
      password: "user-password-1",
      decision: "approve",
      intent: "signup",
    });
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^https:\/\/app\.example\/callback\?tab=1&code=[A-Za-z0-9_-]{43}&state=st-123$/);
  });

  it("shows the form again with 401 for a wrong password, and 409 for signing up a taken email", async () => {
    const email = randomEmail();
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const ok = await browser.submitWithMailbox({ ...base(), csrf_token: page.csrf, email, password: "user-password-1", decision: "approve", intent: "signup" });
    expect(ok.status).toBe(302);
    const before = await codes();
    const wrong = await browser.submit({ ...base(), csrf_token: page.csrf, email, password: "wrong-password", decision: "approve" });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("Wrong email or password");
    expect(wrong.html).toContain('name="csrf_token"');
    const taken = await browser.submitWithMailbox({
      ...base(),
      csrf_token: page.csrf,
      email,
      password: "user-password-1",
      decision: "approve",
      intent: "signup",
    });
    expect(taken.status).toBe(409);
    expect(await codes()).toBe(before);
    const signIn = await browser.submit({ ...base(), csrf_token: page.csrf, email: email.toUpperCase(), password: "user-password-1", decision: "approve" });
    expect(signIn.status).toBe(302);
  });

  it("denies without credentials: documented redirect with error=access_denied and state", async () => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const before = await codes();
    const res = await browser.submit({ ...base(), csrf_token: page.csrf, decision: "deny" });
    expect(res.status).toBe(302);
    const loc = new URL(res.location!);
    expect(loc.origin + loc.pathname).toBe("https://app.example/callback");
    expect(loc.searchParams.get("tab")).toBe("1");
    expect(loc.searchParams.get("error")).toBe("access_denied");
    expect(loc.searchParams.get("error_description")).toBeTruthy();
    expect(loc.searchParams.get("state")).toBe("st-123");
    expect(await codes()).toBe(before);
  });

  it("rejects an unknown decision with 400 invalid_request", async () => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const res = await browser.submit({ ...base(), csrf_token: page.csrf, decision: "maybe" });
    expect(res.status).toBe(400);
  });

  it("popup mode: posts both messages to window.opener targeted at the registered origin, never *", async () => {
    const params = { ...base(), redirect_uri: "https://popup.example:8443/done", display: "popup" };
    const browser = new BrowserSession(server.url);
    const page = await browser.open(params);
    const res = await browser.submitWithMailbox({
      ...params,
      csrf_token: page.csrf,
      email: randomEmail(),
      password: "user-password-1",
      decision: "approve",
      intent: "signup",
    });
    expect(res.status).toBe(200);
    const json = /<script type="application\/json" id="slotgate-result">([^<]+)<\/script>/.exec(res.html)![1]!;
    const result = JSON.parse(json) as { targetOrigin: string; messages: Array<{ from: string; type: string; data: string; state: string }> };
    expect(result.targetOrigin).toBe("https://popup.example:8443");
    expect(result.messages.map((m) => m.from)).toEqual(["slotgate", "gameauth"]);
    expect(result.messages[0]).toMatchObject({ type: "success", state: "st-123" });
    expect(result.messages[0]!.data.split(".")).toHaveLength(3);
    expect(result.messages[1]!.data).toBe(result.messages[0]!.data);
    expect(res.html).toContain("window.opener.postMessage(result.messages[i], result.targetOrigin)");
    expect(res.html).toContain('new BroadcastChannel(result.channel || "slotgate_login")');
    expect(res.html).not.toMatch(/postMessage\([^)]*["']\*["']/);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${result.messages[0]!.data}` } });
    expect(validate.status).toBe(200);
    expect(await validate.json()).toMatchObject({ token_use: "user_jwt", client_id: client.client_id });
    const deny = await browser.submit({ ...params, csrf_token: page.csrf, decision: "deny" });
    const denied = JSON.parse(/id="slotgate-result">([^<]+)</.exec(deny.html)![1]!) as typeof result;
    expect(denied.messages[0]).toMatchObject({ type: "fail", data: "access_denied" });
  });

  it.each(["game", "desktop"] as const)("loopback mode: a %s client is redirected to its loopback URI with jwt and state", async (platform) => {
    const params = { ...base(), client_id: natives[platform].client_id, redirect_uri: GAME_LOOPBACK };
    const browser = new BrowserSession(server.url);
    const page = await browser.open(params);
    const res = await browser.submitWithMailbox({
      ...params,
      csrf_token: page.csrf,
      email: randomEmail(),
      password: "user-password-1",
      decision: "approve",
      intent: "signup",
    });
    expect(res.status).toBe(302);
    const loc = new URL(res.location!);
    expect(`${loc.origin}${loc.pathname}`).toBe(GAME_LOOPBACK);
    expect(loc.searchParams.get("state")).toBe("st-123");
    expect(loc.searchParams.get("code")).toBeNull();
    const jwt = loc.searchParams.get("jwt")!;
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } });
    const body = (await validate.json()) as { expires_at: string; token_use: string };
    expect(body.token_use).toBe("user_jwt");
    const days = (new Date(body.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });
});

/** Parses the popup result page's JSON (the messages posted to the opener). */
function popupResult(html: string): { targetOrigin: string; messages: Array<{ from: string; type: string; data: string; state: string }> } {
  return JSON.parse(/<script type="application\/json" id="slotgate-result">([^<]+)<\/script>/.exec(html)![1]!);
}

describe("a loopback-shaped redirect URI carries the JWT only for a desktop or game client", () => {
  const signUp = async (params: Record<string, string>) => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(params);
    expect(page.status).toBe(200);
    const email = randomEmail("local-web");
    const res = await browser.submitWithMailbox({
      ...params,
      csrf_token: page.csrf,
      email,
      password: "user-password-1",
      decision: "approve",
      intent: "signup",
    });
    return { res, browser, page };
  };

  it("a web client's http://127.0.0.1:{port}/callback gets a code and state (page mode), never a jwt; the code redeems with the secret", async () => {
    const params = { ...base(), redirect_uri: LOOPBACK };
    const { res } = await signUp(params);
    expect(res.status).toBe(302);
    const loc = new URL(res.location!);
    expect(`${loc.origin}${loc.pathname}`).toBe(LOOPBACK);
    expect(loc.searchParams.get("jwt")).toBeNull();
    expect(loc.searchParams.get("state")).toBe("st-123");
    const code = loc.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = await exchange(server.url, { ...client, redirect_uris: [LOOPBACK] }, code);
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({ token_type: "Bearer" });
    expect(
      res.headers.getSetCookie().some((c) => c.startsWith("slotgate_session_")),
      "a web client's approval starts the browser session",
    ).toBe(true);
  });

  it("a web client's loopback-shaped URI with display=popup answers the popup result page for that origin", async () => {
    const params = { ...base(), redirect_uri: LOOPBACK, display: "popup" };
    const { res, browser, page } = await signUp(params);
    expect(res.status).toBe(200);
    expect(res.location).toBeNull();
    const result = popupResult(res.html);
    expect(result.targetOrigin).toBe("http://127.0.0.1:53682");
    expect(result.messages[0]).toMatchObject({ from: "slotgate", type: "success", state: "st-123" });
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${result.messages[0]!.data}` } });
    expect(await validate.json()).toMatchObject({ token_use: "user_jwt", client_id: client.client_id });
    const deny = await browser.submit({ ...params, csrf_token: page.csrf, decision: "deny" });
    expect(popupResult(deny.html).messages[0]).toMatchObject({ type: "fail", data: "access_denied" });
  });

  it("prompt=none is allowed on a web client's loopback-shaped URI (popup), refused on a game client's loopback URI", async () => {
    const silent = (params: Record<string, string>) =>
      fetch(`${server.url}/oauth/authorize?${new URLSearchParams({ ...params, display: "popup", prompt: "none" })}`, { redirect: "manual" });
    const web = await silent({ ...base(), redirect_uri: LOOPBACK });
    expect(web.status).toBe(200);
    const answer = JSON.parse(/id="slotgate-result">(.*?)<\/script>/s.exec(await web.text())![1]!) as { targetOrigin: string; message: Record<string, string> };
    expect(answer.targetOrigin).toBe("http://127.0.0.1:53682");
    expect(answer.message).toMatchObject({ type: "fail", data: "login_required", state: "st-123" });
    const game = await silent({ ...base(), client_id: natives.game.client_id, redirect_uri: GAME_LOOPBACK });
    expect(game.status).toBe(400);
    expect(await game.json()).toMatchObject({ error: "invalid_request", details: [expect.objectContaining({ path: "prompt" })] });
  });

  it("state: PKCE S256 stands in for it on a web client's loopback-shaped URI (a code redirect), not on a game client's (a JWT redirect)", async () => {
    const { verifier, challenge } = pkce();
    const noState = { client_id: client.client_id, redirect_uri: LOOPBACK, response_type: "code", code_challenge: challenge, code_challenge_method: "S256" };
    const { res } = await signUp(noState);
    expect(res.status).toBe(302);
    const loc = new URL(res.location!);
    expect(loc.searchParams.has("state")).toBe(false);
    expect(loc.searchParams.get("jwt")).toBeNull();
    const token = await exchange(server.url, { ...client, redirect_uris: [LOOPBACK] }, loc.searchParams.get("code")!, { code_verifier: verifier });
    expect(token.status).toBe(200);
    const game = await get({ ...noState, client_id: natives.game.client_id, redirect_uri: GAME_LOOPBACK });
    expect(game.status).toBe(400);
    expect(((await game.json()) as { error: string }).error).toBe("ERR_MISSING_PARAMS");
  });

  it("a game client that also sends display=popup still gets the loopback JWT redirect", async () => {
    const { res } = await signUp({ ...base(), client_id: natives.game.client_id, redirect_uri: GAME_LOOPBACK, display: "popup" });
    expect(res.status).toBe(302);
    const loc = new URL(res.location!);
    expect(loc.searchParams.get("jwt")!.split(".")).toHaveLength(3);
    expect(loc.searchParams.get("code")).toBeNull();
  });
});

describe("sign-up proves the mailbox (emailed one-time code)", () => {
  const users = async (email: string) =>
    server.sql<{ verified: boolean }>("SELECT email_verified_at IS NOT NULL AS verified FROM end_users WHERE email = $1", [email]);

  it("mails a code over SMTP and creates the account only when the code comes back", async () => {
    const email = randomEmail("mailbox");
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const before = await codes();
    const step = await browser.submit({ ...base(), csrf_token: page.csrf, email, password: "user-password-1", decision: "approve", intent: "signup" });
    expect(step.status).toBe(200);
    expect(step.challenge).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(step.html).toContain('name="otp"');
    expect(step.html).toContain('autocomplete="one-time-code"');
    expect(step.html).toMatch(/m•••@example\.test/);
    expect(step.html).not.toContain("slotgate-dev-mailbox"); // mail goes over SMTP here
    expect(await users(email)).toHaveLength(0);
    const mail = await server.mail.next(email);
    expect(mail.subject).toContain("Confirm your email");
    const code = /\b([0-9]{6})\b/.exec(mail.body)![1]!;
    expect(step.html).not.toContain(code);
    const done = await browser.submit({ ...base(), csrf_token: step.csrf!, challenge: step.challenge!, otp: code, decision: "approve" });
    expect(done.status).toBe(302);
    expect(done.location).toMatch(/code=[A-Za-z0-9_-]{43}&state=st-123$/);
    expect(await users(email)).toEqual([{ verified: true }]);
    expect(await codes()).toBe(before + 1);
    const replay = await browser.submit({ ...base(), csrf_token: done.csrf ?? step.csrf!, challenge: step.challenge!, otp: code, decision: "approve" });
    expect(replay.status).toBe(400);
    expect(replay.html).toContain("already used");
    expect(await codes()).toBe(before + 1);
  });

  it("a wrong code shows the code page again (401) and counts; after the limit even the right code is refused (423)", async () => {
    const email = randomEmail("lockout");
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const step = await browser.submit({ ...base(), csrf_token: page.csrf, email, password: "user-password-1", decision: "approve", intent: "signup" });
    const code = await server.mail.nextCode(email);
    const wrongCode = code === "000000" ? "000001" : "000000";
    for (let i = 1; i <= 5; i++) {
      const wrong = await browser.submit({ ...base(), csrf_token: step.csrf!, challenge: step.challenge!, otp: wrongCode, decision: "approve" });
      if (i < 5) {
        expect([wrong.status, wrong.challenge]).toEqual([401, step.challenge]);
        expect(wrong.html).toContain(`${5 - i} ${5 - i === 1 ? "try" : "tries"} left`);
      } else expect(wrong.status).toBe(423);
    }
    const right = await browser.submit({ ...base(), csrf_token: step.csrf!, challenge: step.challenge!, otp: code, decision: "approve" });
    expect(right.status).toBe(423);
    expect(await users(email)).toHaveLength(0);
  });

  it("a code works only in the browser it was sent to (bound to its CSRF cookie)", async () => {
    const email = randomEmail("bound");
    const alice = new BrowserSession(server.url);
    const page = await alice.open(base());
    const step = await alice.submit({ ...base(), csrf_token: page.csrf, email, password: "user-password-1", decision: "approve", intent: "signup" });
    const code = await server.mail.nextCode(email);
    const mallory = new BrowserSession(server.url);
    const other = await mallory.open(base());
    const stolen = await mallory.submit({ ...base(), csrf_token: other.csrf, challenge: step.challenge!, otp: code, decision: "approve" });
    expect(stolen.status).toBe(400);
    expect(await users(email)).toHaveLength(0);
  });

  it("an account without a verified mailbox (from before verification) is asked for a code at sign-in", async () => {
    const email = randomEmail("legacy");
    const { hashPassword } = await import("../../src/identity/users/passwords.js");
    await server.sql("INSERT INTO end_users (email, password_hash, nickname) VALUES ($1, $2, 'legacy')", [
      email,
      await hashPassword("user-password-1", { N: 1024, r: 8, p: 1 }),
    ]);
    const browser = new BrowserSession(server.url);
    const page = await browser.open(base());
    const step = await browser.submit({ ...base(), csrf_token: page.csrf, email, password: "user-password-1", decision: "approve" });
    expect(step.status).toBe(200);
    expect(step.html).toContain("has not proven its mailbox");
    const done = await browser.submit({
      ...base(),
      csrf_token: step.csrf!,
      challenge: step.challenge!,
      otp: await server.mail.nextCode(email),
      decision: "approve",
    });
    expect(done.status).toBe(302);
    expect(await users(email)).toEqual([{ verified: true }]);
  });

  it("someone who signed up with another person's address cannot keep it: the mailbox owner's sign-up takes the account over", async () => {
    const email = randomEmail("squat");
    const squatter = new BrowserSession(server.url);
    const p1 = await squatter.open(base());
    await squatter.submit({ ...base(), csrf_token: p1.csrf, email, password: "squatter-password", decision: "approve", intent: "signup" });
    await server.mail.next(email); // the squatter never sees this code
    const owner = new BrowserSession(server.url);
    const p2 = await owner.open(base());
    const done = await owner.submitWithMailbox({ ...base(), csrf_token: p2.csrf, email, password: "owner-password-1", decision: "approve", intent: "signup" });
    expect(done.status).toBe(302);
    const again = await squatter.submit({ ...base(), csrf_token: p1.csrf, email, password: "squatter-password", decision: "approve" });
    expect(again.status).toBe(401);
  });
});
