import { createHash, randomBytes } from "node:crypto";
import type { ClientRegistrationResponse } from "@slotgate/protocol";
import { expect } from "vitest";
import { mailOf } from "./harness.js";

/** A random email for isolation between tests and runs. */
export function randomEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}@example.test`;
}

/** JSON request helper. */
export async function call(base: string, method: string, path: string, init: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  if (init.token) headers["authorization"] = `Bearer ${init.token}`;
  const res = await fetch(base + path, {
    method,
    headers,
    redirect: "manual",
    ...(init.body !== undefined ? { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Signs up a developer and returns its token. */
export async function devSignup(base: string): Promise<{ token: string; email: string; password: string }> {
  const email = randomEmail("dev");
  const password = "dev-password-123";
  const res = await call(base, "POST", "/v1/dev-user/signup", { body: { email, password } });
  expect(res.status).toBe(201);
  return { token: String(res.json["token"]), email, password };
}

/** Registers a client application for a fresh developer. */
export async function registerClient(
  base: string,
  overrides: Partial<{
    redirect_uris: string[];
    blockchain: boolean;
    platform: string;
    name: string;
    web_url: string;
    grant_types: string[];
    token_endpoint_auth_method: string;
  }> = {},
): Promise<ClientRegistrationResponse & { devToken: string }> {
  const dev = await devSignup(base);
  const res = await call(base, "POST", "/v1/dev-user/clients", {
    token: dev.token,
    body: {
      name: overrides.name ?? "Test app",
      redirect_uris: overrides.redirect_uris ?? ["https://app.example/callback"],
      download_url: "https://app.example/download",
      web_url: overrides.web_url ?? "https://app.example/",
      platform: overrides.platform ?? "web",
      blockchain: overrides.blockchain ?? false,
      ...(overrides.grant_types ? { grant_types: overrides.grant_types } : {}),
      ...(overrides.token_endpoint_auth_method ? { token_endpoint_auth_method: overrides.token_endpoint_auth_method } : {}),
    },
  });
  expect(res.status).toBe(201);
  return { ...(res.json as unknown as ClientRegistrationResponse), devToken: dev.token };
}

/** A Cookie header with the answer's Set-Cookie values applied (by name; an empty value removes the cookie). */
function withCookies(cookie: string, headers: Headers): string {
  const jar = new Map(cookie ? cookie.split("; ").map((c) => [c.split("=")[0]!, c] as const) : []);
  for (const set of headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const [name, value] = [pair.split("=")[0]!, pair.slice(pair.indexOf("=") + 1)];
    if (value) jar.set(name, pair);
    else jar.delete(name);
  }
  return [...jar.values()].join("; ");
}

/** A browser-like session on the authorize page (keeps its cookies: the CSRF cookie, the browser session). */
export class BrowserSession {
  cookie = "";
  constructor(readonly base: string) {}

  async open(params: Record<string, string>): Promise<{ status: number; html: string; csrf: string }> {
    const res = await fetch(`${this.base}/oauth/authorize?${new URLSearchParams(params)}`, {
      headers: { accept: "text/html", ...(this.cookie ? { cookie: this.cookie } : {}) },
      redirect: "manual",
    });
    this.cookie = withCookies(this.cookie, res.headers);
    const html = await res.text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? "";
    return { status: res.status, html, csrf };
  }

  async submit(fields: Record<string, string>, cookie = this.cookie) {
    const res = await fetch(`${this.base}/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
    if (cookie === this.cookie) this.cookie = withCookies(this.cookie, res.headers);
    const html = await res.text();
    const challenge = /name="challenge" value="([^"]+)"/.exec(html)?.[1] ?? null;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? null;
    return { status: res.status, location: res.headers.get("location"), html, headers: res.headers, challenge, csrf };
  }

  /**
   * Submits the email form and, when the server answers with the mailbox step, the emailed code
   * (read from the test server's SMTP sink): what a person does to sign up.
   */
  async submitWithMailbox(fields: Record<string, string>) {
    const first = await this.submit(fields);
    if (!first.challenge) return first;
    const code = await mailOf(this.base).nextCode(fields["email"]!);
    const { email: _e, password: _p, intent: _i, ...params } = fields;
    return this.submit({ ...params, csrf_token: first.csrf!, challenge: first.challenge, otp: code, decision: "approve" });
  }
}

/** PKCE pair. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Signs up an end user through the authorize form and returns the authorization code (page mode). */
export async function authorizeCode(
  base: string,
  client: { client_id: string; redirect_uris: string[] },
  opts: { email?: string; password?: string; signup?: boolean; challenge?: string; redirectUri?: string } = {},
): Promise<{ code: string; state: string; email: string; password: string }> {
  const email = opts.email ?? randomEmail();
  const password = opts.password ?? "user-password-123";
  const state = randomBytes(8).toString("hex");
  const params: Record<string, string> = {
    client_id: client.client_id,
    redirect_uri: opts.redirectUri ?? client.redirect_uris[0]!,
    response_type: "code",
    state,
  };
  if (opts.challenge) {
    params["code_challenge"] = opts.challenge;
    params["code_challenge_method"] = "S256";
  }
  const browser = new BrowserSession(base);
  const page = await browser.open(params);
  expect(page.status).toBe(200);
  const res = await browser.submitWithMailbox({
    ...params,
    csrf_token: page.csrf,
    email,
    password,
    decision: "approve",
    ...(opts.signup === false ? {} : { intent: "signup" }),
  });
  expect(res.status).toBe(302);
  const location = new URL(res.location!);
  expect(location.searchParams.get("state")).toBe(state);
  return { code: location.searchParams.get("code")!, state, email, password };
}

/** Exchanges a code at /oauth/token with client_secret_post. */
export async function exchange(
  base: string,
  client: { client_id: string; client_secret: string; redirect_uris: string[] },
  code: string,
  extra: Record<string, string> = {},
) {
  return call(base, "POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirect_uris[0]!,
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...extra,
    }).toString(),
  });
}

/**
 * Whether the token endpoint accepts `secret` as the client's secret: with a bogus code a known client
 * gets invalid_grant, a wrong secret (or a disabled client) invalid_client.
 */
export async function clientSecretAccepted(base: string, client: { client_id: string; redirect_uris: string[] }, secret: string): Promise<boolean> {
  const res = await exchange(base, { ...client, client_secret: secret }, "bogus-code");
  expect([400, 401]).toContain(res.status);
  return res.json["error"] === "invalid_grant";
}
