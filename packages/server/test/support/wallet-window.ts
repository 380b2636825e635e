import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { type ChainUser, pinOf, type TestClient } from "./chain-flows.js";
import { BrowserSession, call, exchange, randomEmail } from "./flows.js";

/** A player signed up through a client's sign-in page, with the browser session cookie the wallet window reads. */
export interface WindowPlayer extends ChainUser {
  /** The Cookie header of the player's browser (the service's browser session for the client, the CSRF cookie). */
  cookie: string;
}

/** Signs a player up at `client`'s authorize page (the browser keeps the session cookie) and exchanges the code. */
export async function newWindowPlayer(server: { url: string }, client: TestClient): Promise<WindowPlayer> {
  const browser = new BrowserSession(server.url);
  const params = { client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, response_type: "code", state: randomBytes(8).toString("hex") };
  const page = await browser.open(params);
  const email = randomEmail();
  const password = "user-password-123";
  const res = await browser.submitWithMailbox({ ...params, csrf_token: page.csrf, email, password, decision: "approve", intent: "signup" });
  expect(res.status).toBe(302);
  const code = new URL(res.location!).searchParams.get("code")!;
  const token = await exchange(server.url, client, code);
  expect(token.status).toBe(200);
  const userId = String(token.json["user_id"]);
  return {
    userId,
    uuid: Number(userId),
    token: String(token.json["access_token"]),
    email,
    password,
    contentAddress: String(token.json["content_address"]),
    cookie: browser.cookie,
  };
}

/** Registers the player's PIN over the JSON API; answers the PIN shares the window would keep. */
export async function registerPin(server: { url: string }, player: ChainUser, pin: string) {
  const shares = pinOf(pin);
  const reg = await call(server.url, "POST", "/v1/pin/register", { token: player.token, body: { user_uuid: player.uuid, ...shares } });
  expect(reg.status).toBe(200);
  return { ...shares, key_share_user: (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user };
}

/** Opens a window page with the player's cookies; answers its status, HTML and the CSRF token of its config. */
export async function openWindow(server: { url: string }, cookie: string, path: string) {
  const res = await fetch(server.url + path, { headers: { accept: "text/html", cookie } });
  const html = await res.text();
  const csrf = /"csrfToken":"([^"]+)"/.exec(html)?.[1] ?? "";
  const set = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const jar = new Map(cookie.split("; ").map((c) => [c.split("=")[0]!, c] as const));
  for (const pair of set) jar.set(pair.split("=")[0]!, pair);
  return { status: res.status, html, csrf, cookie: [...jar.values()].join("; ") };
}

/** Posts JSON from the window's page (its cookies, same origin). */
export async function windowPost(server: { url: string }, cookie: string, path: string, body: unknown) {
  return call(server.url, "POST", path, { body, headers: { cookie } });
}
