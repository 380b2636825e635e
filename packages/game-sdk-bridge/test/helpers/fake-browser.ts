import { request } from "node:http";
import { connect } from "node:net";

/** A JWT-shaped string; the bridge only checks the shape, the game backend verifies it. */
export const SAMPLE_JWT = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwbGF5ZXItMSIsImlzcyI6InNsb3RnYXRlIn0.c2lnbmF0dXJlLWJ5dGVz";

export interface Page {
  status: number;
  body: string;
  headers: Headers;
}

export interface Authorize {
  url: URL;
  redirectUri: string;
  state: string;
  port: number;
}

export function parseAuthorize(href: string): Authorize {
  const url = new URL(href);
  const redirectUri = url.searchParams.get("redirect_uri") ?? "";
  return {
    url,
    redirectUri,
    state: url.searchParams.get("state") ?? "",
    port: Number(new URL(redirectUri).port),
  };
}

/** GETs the loopback callback like a browser following Slotgate's redirect. */
export async function hitCallback(redirectUri: string, query: string, init?: RequestInit): Promise<Page> {
  const response = await fetch(`${redirectUri}?${query}`, init);
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/**
 * An `openBrowser` that records the authorize URL and then plays Slotgate's
 * redirect with the query `makeQuery` builds from it.
 */
export function redirectingBrowser(makeQuery: (authorize: Authorize) => string) {
  const opened: Authorize[] = [];
  let deliver: (page: Page) => void = () => {};
  const page = new Promise<Page>((resolve) => {
    deliver = resolve;
  });
  const openBrowser = async (href: string) => {
    const authorize = parseAuthorize(href);
    opened.push(authorize);
    deliver(await hitCallback(authorize.redirectUri, makeQuery(authorize)));
  };
  return { openBrowser, opened, page };
}

/** An `openBrowser` that only records the URL, like a player who never signs in. */
export function idleBrowser() {
  const opened: Authorize[] = [];
  return { opened, openBrowser: (href: string) => void opened.push(parseAuthorize(href)) };
}

/** A confidential client's loopback redirect (spec 4.14): the JWT itself. */
export function approve(jwt = SAMPLE_JWT) {
  return ({ state }: Authorize) => new URLSearchParams({ jwt, state }).toString();
}

/** A public client's loopback redirect: an authorization code to redeem with the PKCE verifier. */
export function approveWithCode(code = "c0de-from-slotgate_1") {
  return ({ state }: Authorize) => new URLSearchParams({ code, state }).toString();
}

/** One request the fake token endpoint received. */
export interface TokenRequest {
  url: string;
  form: Record<string, string>;
  signal: AbortSignal | undefined;
}

/**
 * A `fetch` standing in for `{SlotgateUrl}/oauth/token`: records each request and answers `status` with
 * `body` (default: 200 and the sample JWT as access_token); `hang` never answers until aborted.
 */
export function tokenEndpoint(answer: { status?: number; body?: unknown; hang?: boolean } = {}) {
  const requests: TokenRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    requests.push({ url: String(input), form: Object.fromEntries(new URLSearchParams(String(init?.body))), signal });
    if (answer.hang) {
      await new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    }
    const body = answer.body ?? { success: true, access_token: SAMPLE_JWT, token_type: "Bearer", expires_in: 604800, user_id: "1" };
    return new Response(JSON.stringify(body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A raw HTTP request to 127.0.0.1 with full control of method and Host header. */
export function rawRequest(port: number, path: string, options: { method?: string; host?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: { host: options.host ?? `127.0.0.1:${port}` },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.once("error", reject);
    req.end();
  });
}
