/**
 * The login scenarios every engine integration must pass, against the real reference server with the player in
 * headless Chromium: the loopback login (RFC 8252) of a public client (no secret) on a port the engine did not fix,
 * with PKCE S256 and `state`, its code redeemed with the verifier, completes; it is refused on denial, a wrong state,
 * a code the server refuses, a timeout and a cancel, and serves the CLI's pages and headers; a confidential client's
 * fixed-port loopback redirect (the JWT itself, spec 4.14) still completes; bad configs, a busy port and a failing
 * browser give their codes; the device login (RFC 8628) completes once approved in Chromium, reports a denial, and
 * an unused code's expiry (a server of its own with 2-second codes) as code_expired.
 * Each engine suite (Unity C# under Mono, the Godot add-on headless) supplies how to run its harness.
 */
import { get as httpGet } from "node:http";
import { createServer, type Server } from "node:net";
import { freeLoopbackPort, type ReferenceServer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failurePage, PAGE_HEADERS, successPage } from "../../packages/game-sdk-bridge/src/loopback/pages.js";
import {
  SHORT_DEVICE_CODE_SECONDS,
  type ShortLivedDeviceServer,
  startShortLivedDeviceServer,
} from "../../packages/game-sdk-bridge/test/helpers/short-lived-device-server.js";
import { decideOnAuthorizePage, decideOnDevicePage, launchChromium, type Player } from "./chromium-player.js";

/** One JSON line the harness printed. */
export type Line = Record<string, unknown>;
/** A finished harness run: exit code, every JSON line, the last one (the result). */
export interface HarnessRun {
  code: number | null;
  lines: Line[];
  result: Line;
  stderr: string;
}
/** Login config with the spec 4.14 names. */
export type EngineConfig = Record<string, unknown>;

/** How an engine's harness is run; `onLine` sees each JSON line as it arrives. */
export interface EngineHarness {
  /** Compiles or checks the harness once, before the server starts. */
  prepare(): void | Promise<void>;
  /** Loopback login; the opener prints `{ "open": url }`, or fails with `opener: "fail"`; `cancelAfterMs` cancels. */
  login(config: EngineConfig, onLine?: (line: Line) => void, options?: { cancelAfterMs?: number }): Promise<HarnessRun>;
  /** Device login; the prompt arrives as a line with `prompt: true`. */
  device(config: EngineConfig, onLine?: (line: Line) => void): Promise<HarnessRun>;
  /** One loopback login per config, the opener failing; one result line each. */
  configs(configs: EngineConfig[]): Promise<HarnessRun>;
}

/** GET with a Host header of our choosing (fetch keeps the real one): a DNS-rebinding page would send its own name. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
  });
}

/** Defines the shared scenarios for one engine. */
export function defineEngineLoginSuite(name: string, harness: EngineHarness): void {
  let server: ReferenceServer;
  let browser: Browser;
  let desktopClient = "";
  let consoleClient = "";
  /** The public client (token_endpoint_auth_method none), registered with the port-less loopback URI. */
  let gameClient = "";
  const GAME_REDIRECT = "http://127.0.0.1/callback";
  /** The confidential desktop client's fixed-port loopback URI. */
  let redirectUri = "";
  /** Signs up in Chromium in the first test; `player` exists from the start (signed up over HTTP). */
  const newcomer: Player = { email: `${name}-new-${Date.now()}@example.test`, password: "engine player password 42" };
  const player: Player = { email: `${name}-${Date.now()}@example.test`, password: "engine player password 42" };

  beforeAll(async () => {
    await harness.prepare();
    redirectUri = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
    const common = ["--download-url", "https://game.example/dl", "--web-url", "https://game.example"];
    server = await startReferenceServer({
      chain: "off",
      env: { LOG_LEVEL: "warn", RATE_LIMIT: "off", SLOTGATE_SEED_DEMO: "false", DEVICE_POLL_INTERVAL_SECONDS: "1" },
      before(run) {
        desktopClient = String(
          (run(["client", "create", "--name", `${name} desktop`, "--redirect-uri", redirectUri, ...common, "--platform", "desktop"]) as Line)["client_id"],
        );
        const device = ["--platform", "game", "--grant-type", "urn:ietf:params:oauth:grant-type:device_code"];
        consoleClient = String(
          (run(["client", "create", "--name", `${name} console`, "--redirect-uri", "https://game.example/unused", ...common, ...device]) as Line)["client_id"],
        );
        gameClient = String(
          (run(["client", "create", "--name", `${name} game`, "--redirect-uri", GAME_REDIRECT, ...common, "--platform", "game", "--public"]) as Line)[
            "client_id"
          ],
        );
      },
    });
    browser = await launchChromium();
    const signedUp = await signUpPlayer(server.url, server.dataDir, { client_id: desktopClient, redirect_uri: redirectUri, state: "set-up", ...player });
    if (signedUp.status !== 302) throw new Error(`player sign-up answered HTTP ${signedUp.status}`);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const config = (fields: EngineConfig = {}) => ({ ClientId: gameClient, RedirectUri: GAME_REDIRECT, SlotgateUrl: server.url, TimeoutMs: 60_000, ...fields });
  /** The redirect URI, port included, that the engine put into the authorize URL it opened. */
  const sentRedirect = (open: string) => new URL(open).searchParams.get("redirect_uri")!;
  const validate = async (jwt: unknown) =>
    (await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${String(jwt)}` } })).json() as Promise<Line>;

  describe(`${name}: loopback login (RFC 8252), the player in Chromium`, () => {
    it("completes for a public client: PKCE S256, a port the engine did not fix, the code redeemed for a JWT that validates; the CLI's success page, code and state gone from the address bar", async () => {
      let visit: ReturnType<typeof decideOnAuthorizePage> | undefined;
      let opened = "";
      const run = await harness.login(config(), (line) => {
        if (typeof line["open"] !== "string") return;
        opened = line["open"];
        visit = decideOnAuthorizePage(browser, opened, { player: newcomer, decision: "approve", signUp: true, dataDir: server.dataDir });
      });
      const seen = await visit!;
      expect(run.code, run.stderr).toBe(0);
      expect(run.result).toMatchObject({ Success: true, ErrorMessage: null, ErrorCode: null });
      expect(await validate(run.result["Jwt"])).toMatchObject({ valid: true, client_id: gameClient, token_use: "user_jwt" });
      expect(seen).toMatchObject({ status: 200, heading: "Signed in to Slotgate", finalUrl: sentRedirect(opened), body: successPage() });
      for (const [header, value] of Object.entries(PAGE_HEADERS)) expect(seen.headers[header.toLowerCase()]).toBe(value);
    });

    it("the authorize URL carries client_id, a loopback redirect URI with a real port, response_type=code, a fresh 256-bit state and a fresh S256 challenge", async () => {
      const urls: URL[] = [];
      for (let i = 0; i < 2; i++) await harness.login(config({ TimeoutMs: 1 }), (line) => typeof line["open"] === "string" && urls.push(new URL(line["open"])));
      const [a, b] = urls.map((u) => Object.fromEntries(u.searchParams));
      expect(a).toMatchObject({
        client_id: gameClient,
        redirect_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
        response_type: "code",
        state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: "S256",
      });
      for (const sent of [a!, b!]) expect(Number(new URL(sent["redirect_uri"]!).port)).toBeGreaterThanOrEqual(1024);
      expect(urls[0]!.origin + urls[0]!.pathname).toBe(`${server.url}/oauth/authorize`);
      expect(a!["state"]).not.toBe(b!["state"]);
      expect(a!["code_challenge"]).not.toBe(b!["code_challenge"]);
    });

    it("a confidential client's fixed-port loopback redirect (the JWT itself) still completes", async () => {
      let visit: ReturnType<typeof decideOnAuthorizePage> | undefined;
      const run = await harness.login(config({ ClientId: desktopClient, RedirectUri: redirectUri }), (line) => {
        if (typeof line["open"] === "string") visit = decideOnAuthorizePage(browser, line["open"], { player, decision: "approve", dataDir: server.dataDir });
      });
      const seen = await visit!;
      expect(run.result).toMatchObject({ Success: true, ErrorCode: null });
      expect(await validate(run.result["Jwt"])).toMatchObject({ valid: true, client_id: desktopClient, token_use: "user_jwt" });
      expect(seen).toMatchObject({ status: 200, finalUrl: redirectUri, body: successPage() });
    });

    it("a code the server refuses (not issued for this login's verifier) is authorization_error, shown on the CLI's failure page", async () => {
      let page: Promise<{ status: number; body: string }> | undefined;
      const run = await harness.login(config(), (line) => {
        if (typeof line["open"] !== "string") return;
        const state = new URL(line["open"]).searchParams.get("state")!;
        page = fetch(`${sentRedirect(line["open"])}?code=${"C".repeat(43)}&state=${state}`).then(async (r) => ({ status: r.status, body: await r.text() }));
      });
      expect(run.result).toMatchObject({ Success: false, Jwt: null, ErrorCode: "authorization_error" });
      expect(run.result["ErrorMessage"]).toMatch(/^Slotgate refused the sign-in code \(invalid_grant\): /);
      expect(await page!).toEqual({ status: 400, body: failurePage(String(run.result["ErrorMessage"])) });
    });

    it("a denial in Chromium is access_denied, with the CLI's failure page", async () => {
      let visit: ReturnType<typeof decideOnAuthorizePage> | undefined;
      const run = await harness.login(config(), (line) => {
        if (typeof line["open"] === "string") visit = decideOnAuthorizePage(browser, line["open"], { player, decision: "deny", dataDir: server.dataDir });
      });
      const seen = await visit!;
      expect(run.code).toBe(1);
      expect(run.result).toMatchObject({ Success: false, Jwt: null, ErrorCode: "access_denied" });
      expect(seen).toMatchObject({ status: 400, heading: "Sign-in failed", body: failurePage(String(run.result["ErrorMessage"])) });
    });

    it("a redirect with a wrong state ends the login with state_mismatch; other paths, methods and Host headers do not", async () => {
      const answers: number[] = [];
      let forged: Promise<string> | undefined;
      const run = await harness.login(config(), (line) => {
        if (typeof line["open"] !== "string") return;
        const redirectUri = sentRedirect(line["open"]);
        forged = (async () => {
          answers.push((await fetch(`${redirectUri.replace("/callback", "/other")}?jwt=a.b.c&state=x`)).status);
          answers.push((await fetch(`${redirectUri}?jwt=a.b.c&state=x`, { method: "POST" })).status);
          answers.push(await statusWithHost(`${redirectUri}?jwt=a.b.c&state=x`, "attacker.example"));
          // As long as a real state (43 characters), so the bytes are compared, not only the lengths.
          const page = await fetch(`${redirectUri}?jwt=a.b.c&state=${"F".repeat(43)}`);
          answers.push(page.status);
          return page.text();
        })();
      });
      expect(run.result).toMatchObject({ Success: false, Jwt: null, ErrorCode: "state_mismatch" });
      expect(run.result["ErrorMessage"]).toContain("missing or wrong state");
      expect(await forged!).toBe(failurePage(String(run.result["ErrorMessage"])));
      // 404 other path, 405 POST, 404 foreign Host (DNS rebinding), 400 the decisive forged redirect.
      expect(answers).toEqual([404, 405, 404, 400]);
    });

    it("no redirect within TimeoutMs is timeout; a cancel is cancelled", async () => {
      const [late, cancelled] = await Promise.all([harness.login(config({ TimeoutMs: 1500 })), harness.login(config(), () => {}, { cancelAfterMs: 300 })]);
      expect(late.result).toMatchObject({ Success: false, ErrorCode: "timeout", ErrorMessage: "No sign-in arrived within 1.5 s. Start the login again." });
      expect(cancelled.result).toMatchObject({ Success: false, ErrorCode: "cancelled", ErrorMessage: "The login was cancelled." });
    });

    it("refuses bad configs, a busy port and a failing browser with their codes", async () => {
      const busy: Server = createServer();
      await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", () => resolve()));
      const busyPort = (busy.address() as { port: number }).port;
      const configs = [
        { ClientId: null },
        { ClientId: "has space" },
        { RedirectUri: "http://localhost:5000/callback" },
        { RedirectUri: "http://127.0.0.1:5000/other" },
        { RedirectUri: "https://127.0.0.1:5000/callback" },
        { RedirectUri: "http://127.0.0.1:5000/callback", LoopbackPort: 5001 },
        { SlotgateUrl: "http://auth.example.com" },
        { SlotgateUrl: "https://user:pw@auth.example.com" },
        { TimeoutMs: -1 },
        { RedirectUri: `http://127.0.0.1:${busyPort}/callback` },
        { RedirectUri: `http://127.0.0.1:${await freeLoopbackPort()}/callback` },
        { RedirectUri: GAME_REDIRECT },
      ].map(config);
      const run = await harness.configs(configs);
      busy.close();
      expect(run.lines.map((l) => l["ErrorCode"])).toEqual([...Array(9).fill("invalid_config"), "port_in_use", "browser_open_failed", "browser_open_failed"]);
      expect(run.lines[2]!["ErrorMessage"]).toContain("must use the IP literal 127.0.0.1, not localhost");
      expect(run.lines[5]!["ErrorMessage"]).toBe("LoopbackPort (5001) differs from the port in RedirectUri (5000); they must agree, or leave one out.");
      expect(run.lines[9]!["ErrorMessage"]).toContain(`Port ${busyPort} on 127.0.0.1 is already in use`);
      expect(run.lines.every((l) => l["Success"] === false && l["Jwt"] === null)).toBe(true);
    });
  });

  describe(`${name}: device login (RFC 8628), the code entered in Chromium`, () => {
    const deviceConfig = (clientId: string) => ({ ClientId: clientId, SlotgateUrl: server.url });

    it("completes once the player approves: the prompt reaches the game, the JWT validates", async () => {
      let phone: Promise<string | null> = Promise.resolve(null);
      const run = await harness.device(deviceConfig(consoleClient), (line) => {
        if (line["prompt"]) phone = decideOnDevicePage(browser, String(line["VerificationUriComplete"]), player, "approve");
      });
      expect(await phone).toBe("device_approved");
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines[0]).toMatchObject({
        prompt: true,
        UserCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
        VerificationUri: `${server.url}/oauth/device`,
        ExpiresIn: 600,
      });
      expect(run.result).toMatchObject({ Success: true, ErrorCode: null });
      expect(await validate(run.result["Jwt"])).toMatchObject({ valid: true, client_id: consoleClient, token_use: "user_jwt" });
    });

    it("a denial is access_denied; a client without the grant is invalid_config", async () => {
      let phone: Promise<string | null> = Promise.resolve(null);
      const [denied, unregistered] = await Promise.all([
        harness.device(deviceConfig(consoleClient), (line) => {
          if (line["prompt"]) phone = decideOnDevicePage(browser, String(line["VerificationUriComplete"]), player, "deny");
        }),
        harness.device(deviceConfig(desktopClient)),
      ]);
      expect(await phone).toBe("device_denied");
      expect(denied.result).toMatchObject({ Success: false, Jwt: null, ErrorCode: "access_denied" });
      expect(unregistered.result).toMatchObject({ Success: false, ErrorCode: "invalid_config" });
      expect(unregistered.result["ErrorMessage"]).toContain("unauthorized_client");
    });
  });

  describe(`${name}: device login (RFC 8628), a code nobody enters`, () => {
    /** A server of its own whose device codes live 2 s (the suite's server keeps the default 600 s it asserts). */
    let shortLived: ShortLivedDeviceServer;
    beforeAll(async () => {
      shortLived = await startShortLivedDeviceServer(name);
    }, 180_000);
    afterAll(async () => {
      await shortLived?.server.close();
    });

    it("is code_expired once the server answers expired_token, with the CLI's message", async () => {
      const run = await harness.device({ ClientId: shortLived.clientId, SlotgateUrl: shortLived.server.url });
      expect(run.lines[0]).toMatchObject({ prompt: true, ExpiresIn: SHORT_DEVICE_CODE_SECONDS });
      expect(run.code).toBe(1);
      expect(run.result).toMatchObject({
        Success: false,
        Jwt: null,
        ErrorCode: "code_expired",
        ErrorMessage: "The code expired before the player entered it. Start the login again.",
      });
    });
  });
}

/** Collects a child's JSON stdout lines (other lines, such as an engine's banner, are skipped). */
export function collectRun(child: import("node:child_process").ChildProcess, onLine: (line: Line) => void): Promise<HarnessRun> {
  const lines: Line[] = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const text of parts) {
      if (!text.startsWith("{")) continue;
      const line = JSON.parse(text) as Line;
      lines.push(line);
      onLine(line);
    }
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, lines, stderr, result: lines.at(-1) ?? {} })));
}
