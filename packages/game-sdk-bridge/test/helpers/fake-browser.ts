import { request } from "node:http";
import { connect } from "node:net";

/** A JWT-shaped string; the bridge only checks the shape, the game backend verifies it. */
export const SAMPLE_JWT =
  "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwbGF5ZXItMSIsImlzcyI6InNsb3RnYXRlIn0.c2lnbmF0dXJlLWJ5dGVz";

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

export function approve(jwt = SAMPLE_JWT) {
  return ({ state }: Authorize) => new URLSearchParams({ jwt, state }).toString();
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
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; body: string }> {
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
