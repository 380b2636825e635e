import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { login } from "../src/index.js";
import { approve, approveWithCode, isListening, redirectingBrowser, SAMPLE_JWT, tokenEndpoint } from "./helpers/fake-browser.js";

/** A port that was free a moment ago (the OS hands out ephemeral ports without reuse for a while). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("login success over real HTTP on 127.0.0.1", () => {
  it("redeems the redirect's code with the PKCE verifier and client_id only, then shows the success page", async () => {
    const browser = redirectingBrowser(approveWithCode("the-code_42"));
    const token = tokenEndpoint();
    const result = await login(
      { ClientId: "game-1", RedirectUri: "http://127.0.0.1/callback", SlotgateUrl: "https://auth.example.test/base" },
      { openBrowser: browser.openBrowser, fetch: token.fetch },
    );
    expect(result).toMatchObject({ Success: true, Jwt: SAMPLE_JWT, ErrorCode: null });
    const authorize = browser.opened[0]!;
    expect(authorize.port).toBeGreaterThan(0);
    expect(token.requests).toHaveLength(1);
    const [request] = token.requests;
    expect(request!.url).toBe("https://auth.example.test/base/oauth/token");
    expect(Object.keys(request!.form).sort()).toEqual(["client_id", "code", "code_verifier", "grant_type", "redirect_uri"]);
    expect(request!.form).toMatchObject({ grant_type: "authorization_code", code: "the-code_42", client_id: "game-1", redirect_uri: authorize.redirectUri });
    // RFC 7636 S256: the challenge sent to /oauth/authorize is BASE64URL(SHA-256(verifier)).
    const verifier = request!.form["code_verifier"]!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.url.searchParams.get("code_challenge")).toBe(createHash("sha256").update(verifier).digest("base64url"));
    expect(authorize.url.searchParams.get("code_challenge_method")).toBe("S256");
    const page = await browser.page;
    expect(page.status).toBe(200);
    expect(page.body).toContain("Signed in to Slotgate");
  });

  it("listens on a port the operating system picks when RedirectUri names none, a new one each login", async () => {
    const ports: number[] = [];
    for (let i = 0; i < 2; i++) {
      const browser = redirectingBrowser(approveWithCode());
      const result = await login(
        { ClientId: "game-1", RedirectUri: "http://127.0.0.1/callback" },
        { openBrowser: browser.openBrowser, fetch: tokenEndpoint().fetch },
      );
      expect(result.Success).toBe(true);
      ports.push(browser.opened[0]!.port);
      expect(browser.opened[0]!.redirectUri).toBe(`http://127.0.0.1:${browser.opened[0]!.port}/callback`);
    }
    expect(ports.every((port) => port >= 1024)).toBe(true);
  });

  it("resolves Success with the jwt of a confidential client's loopback redirect and shows a success page", async () => {
    const browser = redirectingBrowser(approve());
    const result = await login(
      { ClientId: "game-1", RedirectUri: "http://127.0.0.1:0/callback", SlotgateUrl: "http://127.0.0.1:9" },
      { openBrowser: browser.openBrowser },
    );

    expect(result).toEqual({
      Success: true,
      Jwt: SAMPLE_JWT,
      ErrorMessage: null,
      ErrorCode: null,
      success: true,
      jwt: SAMPLE_JWT,
      errorMessage: null,
      errorCode: null,
    });
    const page = await browser.page;
    expect(page.status).toBe(200);
    expect(page.body).toContain("Signed in to Slotgate");
    expect(page.body).toContain("return to the game");
    expect(page.body).not.toContain(SAMPLE_JWT);
  });

  it("closes the listener once the login is done", async () => {
    const browser = redirectingBrowser(approve());
    await login({ ClientId: "game-1", RedirectUri: "http://127.0.0.1:0/callback" }, { openBrowser: browser.openBrowser });
    const port = browser.opened[0]?.port ?? 0;
    expect(port).toBeGreaterThan(0);
    expect(await isListening(port)).toBe(false);
  });

  it("opens {SlotgateUrl}/oauth/authorize with client_id, redirect_uri, response_type=code, a fresh 256-bit state and a fresh S256 challenge", async () => {
    const first = redirectingBrowser(approve());
    const second = redirectingBrowser(approve());
    const config = {
      ClientId: "game-1",
      RedirectUri: "http://127.0.0.1:0/callback",
      SlotgateUrl: "https://auth.example.test/base",
    };
    await login(config, { openBrowser: first.openBrowser });
    await login(config, { openBrowser: second.openBrowser });

    const a = first.opened[0]!;
    expect(`${a.url.origin}${a.url.pathname}`).toBe("https://auth.example.test/base/oauth/authorize");
    expect([...a.url.searchParams.keys()].sort()).toEqual(["client_id", "code_challenge", "code_challenge_method", "redirect_uri", "response_type", "state"]);
    expect(a.url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.opened[0]!.url.searchParams.get("code_challenge")).not.toBe(a.url.searchParams.get("code_challenge"));
    expect(a.url.searchParams.get("client_id")).toBe("game-1");
    expect(a.url.searchParams.get("response_type")).toBe("code");
    expect(a.redirectUri).toBe(`http://127.0.0.1:${a.port}/callback`);
    expect(a.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.opened[0]!.state).not.toBe(a.state);
  });

  it("uses https://auth.slotgate.io when no SlotgateUrl is given", async () => {
    const browser = redirectingBrowser(approve());
    await login({ ClientId: "game-1", RedirectUri: "http://127.0.0.1:0/callback" }, { openBrowser: browser.openBrowser });
    expect(browser.opened[0]!.url.href.startsWith("https://auth.slotgate.io/oauth/authorize?")).toBe(true);
  });

  it("listens on the port named in RedirectUri and sends that exact URI", async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const browser = redirectingBrowser(approve());
    const result = await login({ ClientId: "game-1", RedirectUri: redirectUri, LoopbackPort: port }, { openBrowser: browser.openBrowser });
    expect(result.Success).toBe(true);
    expect(browser.opened[0]!.redirectUri).toBe(redirectUri);
  });

  it("uses LoopbackPort when RedirectUri names no port, and substitutes it into the redirect URI", async () => {
    const port = await freePort();
    const browser = redirectingBrowser(approve());
    const result = await login({ ClientId: "game-1", RedirectUri: "http://127.0.0.1/callback", LoopbackPort: port }, { openBrowser: browser.openBrowser });
    expect(result.Success).toBe(true);
    expect(browser.opened[0]!.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
  });

  it("accepts the camelCase config names of JavaScript callers", async () => {
    const browser = redirectingBrowser(approve());
    const result = await login(
      { clientId: "game-js", redirectUri: "http://127.0.0.1:0/callback", slotgateUrl: "http://localhost:8080" },
      { openBrowser: browser.openBrowser },
    );
    expect(result.success).toBe(true);
    expect(result.jwt).toBe(SAMPLE_JWT);
    expect(browser.opened[0]!.url.searchParams.get("client_id")).toBe("game-js");
    expect(browser.opened[0]!.url.origin).toBe("http://localhost:8080");
  });

  it("serves pages that cache nothing, load nothing and send no referrer", async () => {
    const browser = redirectingBrowser(approve());
    await login({ ClientId: "game-1", RedirectUri: "http://127.0.0.1:0/callback" }, { openBrowser: browser.openBrowser });
    const { headers, body } = await browser.page;
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'/);
    // The inline script strips ?jwt=..&state=.. from the address bar and history.
    expect(body).toContain('history.replaceState(null, "", "/callback")');
  });
});
