import { randomUUID } from "node:crypto";
import { type ClientRegistrationRequest, type ClientRegistrationResponse, loopbackJwtRedirect, PATHS, type TokenResponse } from "@slotgate/protocol";
import { type AnyEndpoint, ENDPOINTS } from "@slotgate/protocol/endpoints";
import { devUserLoginResponseSchema, tokenResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectOk } from "./assertions.js";
import { type CallbackReceiver, startCallbackReceiver } from "./callback-receiver.js";
import { ConformanceError } from "./errors.js";
import { inputValue, scriptById } from "./html.js";
import { expectRowAnswer, rowOf } from "./row-answers.js";
import type { ConformanceTarget } from "./target.js";

/** A client application the suite registered, with its secret and main redirect URI. */
export interface RegisteredClient extends ClientRegistrationResponse {
  redirect_uri: string;
}

/** An end user the suite signed up through the authorize form. */
export interface TestUser {
  user_id: string;
  email: string;
  password: string;
}

/** Fields of the authorize form submission. */
export type AuthorizeFields = Record<string, string>;

/** What `GET /oauth/authorize` answered. */
export interface AuthorizePage {
  response: Response;
  html: string;
  /** The form's `csrf_token` hidden input. */
  csrfToken: string | undefined;
  /** The `slotgate_csrf` cookie value set by the page. */
  csrfCookie: string | undefined;
}

/**
 * The suite's world: a developer, four registered clients, two end users, a callback receiver on
 * 127.0.0.1, and helpers that run the contract's flows. Every check function takes one.
 */
export interface ConformanceContext {
  readonly target: ConformanceTarget;
  readonly baseUrl: string;
  /** The endpoint table's rows the target serves (`target.endpoints`, by default every row not for the development chain only). */
  readonly endpoints: readonly AnyEndpoint[];
  /** Absolute URL of a service path with an optional query. */
  url(path: string, query?: Record<string, string>): string;
  /**
   * `fetch` against the service (relative paths are resolved against the base URL). Every success
   * answer of a row of the endpoint table is asserted to match the row's answer schema for its status.
   */
  request(path: string, init?: RequestInit): Promise<Response>;
  postJson(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  postForm(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  readonly developer: { email: string; password: string; token: string; uuid: string };
  readonly clients: {
    /** Web client, `blockchain: false`, redirect URIs `https://web.conformance.test/callback` and one with a query. */
    web: RegisteredClient;
    /** Web client, `blockchain: true`, used for content tokens. */
    chain: RegisteredClient;
    /** Game client with a loopback redirect URI. */
    loopback: RegisteredClient;
    /**
     * Web client whose redirect URI has the loopback shape `http://127.0.0.1:{port}/callback` (a web app run
     * locally): an ordinary redirect URI, never the loopback JWT redirect of a desktop or game client.
     */
    localWeb: RegisteredClient;
    /** Backend client whose redirect URI is the suite's callback receiver; `blockchain: true`. */
    backend: RegisteredClient;
    /** Console client registered for the device grant (RFC 8628); used as a public client. */
    device: RegisteredClient;
    /** Web client registered for refresh tokens (`grant_types: ["refresh_token"]`). */
    refresh: RegisteredClient;
  };
  readonly users: { alice: TestUser; bob: TestUser };
  readonly receiver: CallbackReceiver;
  /** A random suffix, unique per context (for emails and cuids). */
  unique(prefix: string): string;
  openAuthorize(query: Record<string, string>, accept?: string): Promise<AuthorizePage>;
  /** POSTs the authorize form (redirects not followed). `cookie: null` sends no cookie. */
  submitAuthorize(fields: AuthorizeFields, cookie: string | null): Promise<Response>;
  /** Page-mode approval: returns the code from the redirect. */
  authorizeCode(
    client: RegisteredClient,
    user: TestUser,
    extra?: { redirect_uri?: string; code_challenge?: string },
  ): Promise<{ code: string; state: string; redirect_uri: string }>;
  /** `POST /oauth/token`. */
  exchange(
    client: RegisteredClient,
    code: string,
    options?: { auth?: "post" | "basic"; format?: "json" | "form"; redirect_uri?: string; code_verifier?: string; secret?: string },
  ): Promise<Response>;
  /** Code flow end to end: a fresh access token for the user at the client. */
  accessToken(client: RegisteredClient, user: TestUser): Promise<TokenResponse>;
  /** Popup (or loopback) login: a user JWT for the user at the client. */
  userJwt(client: RegisteredClient, user: TestUser): Promise<string>;
  /** Signs a new end user up through the authorize form (`intent=signup`, then the emailed code). */
  signupUser(): Promise<TestUser>;
  /** `Authorization: Bearer` header. */
  bearer(token: string): Record<string, string>;
  /** `Authorization: Basic` header with the client's credentials. */
  basic(client: { client_id: string; client_secret: string }): Record<string, string>;
  /** `GET /v1/oauth/validate`. */
  validate(token: string): Promise<Response>;
  close(): Promise<void>;
}

/** The value of a cookie that a response sets. */
export function setCookieValue(response: Response, name: string): string | undefined {
  const headers = typeof response.headers.getSetCookie === "function" ? response.headers.getSetCookie() : [response.headers.get("set-cookie") ?? ""];
  for (const header of headers) {
    const match = new RegExp(`(?:^|[,\\s])${name}=([^;,\\s]+)`).exec(header);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** The rows a target serves: its `endpoints`, by default every row of the table not for the development chain only. */
function servedRows(target: ConformanceTarget): AnyEndpoint[] {
  const rows = Object.values(ENDPOINTS) as AnyEndpoint[];
  if (!target.endpoints) return rows.filter((row) => !row.development);
  const named = new Set<string>(target.endpoints);
  return rows.filter((row) => named.has(row.name));
}

function basicHeader(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

/**
 * Builds a context against a target: signs up a developer, registers the clients, starts the callback
 * receiver and signs up two end users, all through the public HTTP API.
 *
 * @example
 * ```ts
 * const ctx = await createConformanceContext({ name: "mock", baseUrl: () => mock.baseUrl, operator: mock.operator });
 * await codeIsSingleUse(ctx);
 * await ctx.close();
 * ```
 */
export async function createConformanceContext(target: ConformanceTarget): Promise<ConformanceContext> {
  const baseUrl = target.baseUrl().replace(/\/+$/, "");
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const doFetch: typeof fetch = (input, init) => (target.fetch ?? globalThis.fetch)(input, init);
  const url = (path: string, query?: Record<string, string>) =>
    `${/^https?:\/\//.test(path) ? path : `${baseUrl}${path}`}${query ? `?${new URLSearchParams(query)}` : ""}`;
  const request = async (path: string, init?: RequestInit) => {
    const absolute = url(path);
    const response = await doFetch(absolute, init);
    const row = absolute.startsWith(`${baseUrl}/`) ? rowOf(init?.method ?? "GET", new URL(absolute).pathname.slice(basePath.length)) : undefined;
    if (row) await expectRowAnswer(row, response);
    return response;
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    request(path, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const tag = randomUUID().slice(0, 8);
  let counter = 0;
  const unique = (prefix: string) => `${prefix}-${tag}-${++counter}`;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const basic = (client: { client_id: string; client_secret: string }) => ({ Authorization: basicHeader(client.client_id, client.client_secret) });

  const receiver = await startCallbackReceiver();
  try {
    const developer = { email: `${unique("dev")}@conformance.test`, password: `pw-${randomUUID()}` };
    const signup = await expectOk(await postJson(PATHS.devUserSignup, developer), devUserLoginResponseSchema, 201, "developer signup");

    const register = async (req: ClientRegistrationRequest): Promise<RegisteredClient> => {
      const res = await postJson(PATHS.clients, req, bearer(signup.token));
      if (res.status !== 201) throw new ConformanceError("setup_failed", `client registration answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as ClientRegistrationResponse;
      return { ...body, redirect_uri: req.redirect_uris[0]! };
    };
    const loopbackPort = 20000 + Math.floor(Math.random() * 40000);
    const common = { download_url: "https://conformance.test/download", web_url: "https://conformance.test/" };
    const clients = {
      web: await register({
        name: "Conformance Web",
        redirect_uris: ["https://web.conformance.test/callback", "https://web.conformance.test/cb?tenant=7"],
        platform: "web",
        blockchain: false,
        ...common,
      }),
      chain: await register({
        name: "Conformance Chain",
        redirect_uris: ["https://chain.conformance.test/callback/"],
        platform: "web",
        blockchain: true,
        ...common,
      }),
      loopback: await register({
        name: "Conformance Game",
        redirect_uris: [`http://127.0.0.1:${loopbackPort}/callback`],
        platform: "game",
        blockchain: false,
        ...common,
      }),
      localWeb: await register({
        name: "Conformance Local Web",
        redirect_uris: [`http://127.0.0.1:${loopbackPort + 2}/callback`],
        platform: "web",
        blockchain: false,
        ...common,
      }),
      backend: await register({ name: "Conformance Backend", redirect_uris: [receiver.url], platform: "web", blockchain: true, ...common }),
      device: await register({
        name: "Conformance Console",
        redirect_uris: [`http://127.0.0.1:${loopbackPort + 1}/callback`],
        platform: "game",
        blockchain: false,
        grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
        ...common,
      }),
      refresh: await register({
        name: "Conformance Refresh",
        redirect_uris: ["https://refresh.conformance.test/callback"],
        platform: "web",
        blockchain: false,
        grant_types: ["refresh_token"],
        ...common,
      }),
    };

    const openAuthorize = async (query: Record<string, string>, accept = "text/html"): Promise<AuthorizePage> => {
      const response = await request(PATHS.authorize + `?${new URLSearchParams(query)}`, { headers: { Accept: accept }, redirect: "manual" });
      const html = await response.text();
      return { response, html, csrfToken: inputValue(html, "csrf_token"), csrfCookie: setCookieValue(response, "slotgate_csrf") };
    };
    const submitAuthorize = (fields: AuthorizeFields, cookie: string | null) =>
      postForm(PATHS.authorize, fields, { Accept: "text/html", ...(cookie === null ? {} : { Cookie: `slotgate_csrf=${cookie}` }) });

    /** Opens the page and submits it; returns the POST's response. */
    const approve = async (query: Record<string, string>, user: { email: string; password: string }, extra: Record<string, string> = {}) => {
      const page = await openAuthorize(query);
      if (page.response.status !== 200 || !page.csrfToken || !page.csrfCookie) {
        throw new ConformanceError(
          "setup_failed",
          `authorize page answered ${page.response.status} (csrf input ${Boolean(page.csrfToken)}, cookie ${Boolean(page.csrfCookie)})`,
        );
      }
      return submitAuthorize(
        { ...query, csrf_token: page.csrfToken, email: user.email, password: user.password, decision: "approve", ...extra },
        page.csrfCookie,
      );
    };

    const codeFrom = (response: Response, what: string): { code: string; state: string } => {
      const location = response.headers.get("location");
      if (response.status !== 302 || !location) throw new ConformanceError("unexpected_response", `${what}: expected a 302 redirect, got ${response.status}`);
      const params = new URL(location).searchParams;
      const code = params.get("code");
      if (!code) throw new ConformanceError("unexpected_response", `${what}: redirect without code: ${location.replace(/code=[^&]+/, "code=…")}`);
      return { code, state: params.get("state") ?? "" };
    };

    const exchange: ConformanceContext["exchange"] = (client, code, options = {}) => {
      const fields: Record<string, string> = {
        grant_type: "authorization_code",
        code,
        redirect_uri: options.redirect_uri ?? client.redirect_uri,
        client_id: client.client_id,
        ...(options.code_verifier ? { code_verifier: options.code_verifier } : {}),
      };
      const secret = options.secret ?? client.client_secret;
      const headers: Record<string, string> = options.auth === "basic" ? { Authorization: basicHeader(client.client_id, secret) } : {};
      if (options.auth !== "basic") fields["client_secret"] = secret;
      return options.format === "form" ? postForm(PATHS.token, fields, headers) : postJson(PATHS.token, fields, headers);
    };

    const authorizeCode: ConformanceContext["authorizeCode"] = async (client, user, extra = {}) => {
      const state = unique("state");
      const redirect_uri = extra.redirect_uri ?? client.redirect_uri;
      const query: Record<string, string> = { client_id: client.client_id, redirect_uri, response_type: "code", state };
      if (extra.code_challenge) Object.assign(query, { code_challenge: extra.code_challenge, code_challenge_method: "S256" });
      const { code } = codeFrom(await approve(query, user), "authorize approve");
      return { code, state, redirect_uri };
    };

    const accessToken: ConformanceContext["accessToken"] = async (client, user) => {
      const { code } = await authorizeCode(client, user);
      return expectOk(await exchange(client, code), tokenResponseSchema, 200, "token exchange");
    };

    const userJwt: ConformanceContext["userJwt"] = async (client, user) => {
      const state = unique("state");
      const loopback = client.redirect_uris.find((u) => loopbackJwtRedirect(client, u));
      if (loopback) {
        const res = await approve({ client_id: client.client_id, redirect_uri: loopback, response_type: "code", state }, user);
        const jwt = new URL(res.headers.get("location") ?? "http://x/").searchParams.get("jwt");
        if (res.status !== 302 || !jwt) throw new ConformanceError("unexpected_response", `loopback login answered ${res.status}`);
        return jwt;
      }
      const res = await approve({ client_id: client.client_id, redirect_uri: client.redirect_uri, response_type: "code", state, display: "popup" }, user);
      const html = await res.text();
      const json = scriptById(html, "slotgate-result");
      if (res.status !== 200 || !json) throw new ConformanceError("unexpected_response", `popup login answered ${res.status} without a slotgate-result script`);
      const result = JSON.parse(json) as { messages: { type: string; data: string }[] };
      const first = result.messages[0];
      if (first?.type !== "success") throw new ConformanceError("unexpected_response", `popup login result was ${first?.type}`);
      return first.data;
    };

    const signupUser = async (): Promise<TestUser> => {
      const email = `${unique("user")}@conformance.test`;
      const password = `pw-${randomUUID()}`;
      const state = unique("state");
      const query = { client_id: clients.web.client_id, redirect_uri: clients.web.redirect_uri, response_type: "code", state };
      const page = await openAuthorize(query);
      if (!page.csrfToken || !page.csrfCookie) throw new ConformanceError("setup_failed", `authorize page answered ${page.response.status} without its form`);
      const step = await submitAuthorize({ ...query, csrf_token: page.csrfToken, email, password, decision: "approve", intent: "signup" }, page.csrfCookie);
      const stepHtml = await step.text();
      const challenge = inputValue(stepHtml, "challenge");
      if (step.status !== 200 || !challenge)
        throw new ConformanceError("unexpected_response", `signup: expected the mailbox step (200 with a challenge input), got ${step.status}`);
      const otp = await target.readMailedCode(email);
      const { code } = codeFrom(
        await submitAuthorize(
          { ...query, csrf_token: inputValue(stepHtml, "csrf_token") ?? page.csrfToken, challenge, otp, decision: "approve" },
          page.csrfCookie,
        ),
        "signup code",
      );
      const token = await expectOk(await exchange(clients.web, code), tokenResponseSchema, 200, "signup token exchange");
      expect(token.user_id, "user_id is the decimal string of a positive integer").toMatch(/^[1-9][0-9]*$/);
      return { user_id: token.user_id, email, password };
    };

    const users = { alice: await signupUser(), bob: await signupUser() };

    return {
      target,
      baseUrl,
      endpoints: servedRows(target),
      url,
      request,
      postJson,
      postForm,
      developer: { ...developer, token: signup.token, uuid: signup.uuid },
      clients,
      users,
      receiver,
      unique,
      openAuthorize,
      submitAuthorize,
      authorizeCode,
      exchange,
      accessToken,
      userJwt,
      signupUser,
      bearer,
      basic,
      validate: (token) => request(PATHS.validate, { headers: bearer(token) }),
      close: () => receiver.close(),
    };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}
