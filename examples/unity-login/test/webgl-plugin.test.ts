import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type ReferenceServer, startReferenceServer, waitForMailedCode } from "@slotgate/server/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The WebGL plugin of the package the example installs (com.slotgate.login/Runtime/Plugins/WebGL/SlotgateLogin.jslib) in real headless Chromium, in a page
 * that stands in for a Unity WebGL build: LibraryManager/mergeInto load the plugin as Emscripten would,
 * strings travel through a byte heap (UTF8ToString), and SendMessage records what C# would receive.
 */
const PLUGIN = readFileSync(join(import.meta.dirname, "../../../engines/unity/com.slotgate.login/Runtime/Plugins/WebGL/SlotgateLogin.jslib"), "utf8");
const SDK = readFileSync(join(dirname(createRequire(import.meta.url).resolve("@slotgate/client-sdk/package.json")), "dist/slotgate.iife.js"), "utf8");

const UNITY_STAND_IN = `
var LibraryManager = { library: {} };
function mergeInto(target, source) { Object.assign(target, source); }
var Module = {};
var HEAPU8 = new Uint8Array(1 << 16);
var heapTop = 8;
function allocateUTF8(text) {
  var bytes = new TextEncoder().encode(text);
  var ptr = heapTop;
  HEAPU8.set(bytes, ptr);
  HEAPU8[ptr + bytes.length] = 0;
  heapTop += bytes.length + 1;
  return ptr;
}
function UTF8ToString(ptr) {
  var end = ptr;
  while (HEAPU8[end] !== 0) end++;
  return new TextDecoder().decode(HEAPU8.subarray(ptr, end));
}
window.__sent = [];
function SendMessage(gameObject, method, value) { window.__sent.push({ gameObject: gameObject, method: method, value: value }); }
`;

const page = (withSdk: boolean) => `<!doctype html><html><body>
<script>${UNITY_STAND_IN}</script>
${withSdk ? '<script src="/slotgate.iife.js"></script>' : ""}
<script src="/SlotgateLogin.jslib"></script>
<button id="signin">Sign in</button>
<script>
document.getElementById("signin").addEventListener("click", function () {
  // What SlotgateWebGL.Login does through [DllImport("__Internal")]: three string pointers.
  LibraryManager.library.SlotgateLogin(allocateUTF8(JSON.stringify(window.__config)), allocateUTF8("LoginPanel"), allocateUTF8("OnSlotgateLogin"));
});
</script></body></html>`;

let game: Server;
let origin = "";
let server: ReferenceServer;
let browser: Browser;
let clientId = "";

beforeAll(async () => {
  game = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const [type, body] =
      path === "/slotgate.iife.js"
        ? ["text/javascript", SDK]
        : path === "/SlotgateLogin.jslib"
          ? ["text/javascript", PLUGIN]
          : ["text/html", page(path !== "/no-sdk")];
    res.writeHead(200, { "content-type": type });
    res.end(body);
  });
  await new Promise<void>((r) => game.listen(0, "127.0.0.1", () => r()));
  origin = `http://127.0.0.1:${(game.address() as AddressInfo).port}`;
  server = await startReferenceServer({
    chain: "off",
    env: { LOG_LEVEL: "warn", RATE_LIMIT: "off", SLOTGATE_SEED_DEMO: "false" },
    before(run) {
      clientId = String(
        (
          run([
            "client",
            "create",
            "--name",
            "Unity WebGL",
            "--redirect-uri",
            `${origin}/slotgate-callback.html`,
            "--download-url",
            `${origin}/dl`,
            "--web-url",
            origin,
            "--platform",
            "web",
          ]) as Record<string, unknown>
        )["client_id"],
      );
    },
  });
  browser = await chromium.launch({
    executablePath: process.env["SLOTGATE_CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  game?.close();
});

type Sent = { gameObject: string; method: string; value: string };
const sent = (p: Page) => p.evaluate(() => (globalThis as unknown as { __sent: Sent[] }).__sent);

async function signIn(decision: "approve" | "deny"): Promise<Sent[]> {
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    await p.goto(`${origin}/game`);
    await p.evaluate(
      (config) => {
        (globalThis as unknown as { __config: unknown }).__config = config;
      },
      { ClientId: clientId, RedirectUri: `${origin}/slotgate-callback.html`, SlotgateUrl: server.url },
    );
    const [popup] = await Promise.all([p.waitForEvent("popup"), p.click("#signin")]);
    await popup.waitForSelector("#email");
    const email = `webgl-${Date.now()}@example.test`;
    if (decision === "approve") {
      await popup.fill("#email", email);
      await popup.fill("#password", "webgl-player-password");
      await popup.check('input[name="intent"]');
    }
    await popup.click(`#email-form button[value="${decision}"]`);
    if (decision === "approve") {
      // The mailbox step: the code from the development mailbox in the server's data directory.
      await popup.waitForSelector("#otp");
      await popup.fill("#otp", await waitForMailedCode(server.dataDir, email));
      await popup.click('#code-form button[value="approve"]');
    }
    await p.waitForFunction(() => (globalThis as unknown as { __sent: unknown[] }).__sent.length > 0);
    return await sent(p);
  } finally {
    await context.close();
  }
}

/**
 * Clicks the stand-in's sign-in button with `config`; `popup` (when a popup is expected) acts on it, `prepare` runs in
 * the page first. Resolves the one result C# received, parsed.
 */
async function clickSignIn(config: Record<string, unknown>, popup: ((popup: Page) => Promise<void>) | null, prepare?: () => void): Promise<unknown> {
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    await p.goto(`${origin}/game`);
    await p.evaluate((value) => {
      (globalThis as unknown as { __config: unknown }).__config = value;
    }, config);
    if (prepare) await p.evaluate(prepare);
    if (popup) {
      const [opened] = await Promise.all([p.waitForEvent("popup"), p.click("#signin")]);
      await popup(opened);
    } else await p.click("#signin");
    await p.waitForFunction(() => (globalThis as unknown as { __sent: unknown[] }).__sent.length > 0);
    const messages = await sent(p);
    expect(messages).toHaveLength(1);
    return JSON.parse(messages[0]!.value) as unknown;
  } finally {
    await context.close();
  }
}

describe("Unity WebGL .jslib plugin in Chromium", () => {
  it("hands { Success, Jwt, ErrorMessage, ErrorCode } to the C# callback after the popup login; the JWT validates", async () => {
    const messages = await signIn("approve");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ gameObject: "LoginPanel", method: "OnSlotgateLogin" });
    const result = JSON.parse(messages[0]!.value) as { Success: boolean; Jwt: string; ErrorMessage: string | null };
    expect(result).toEqual({ Success: true, Jwt: expect.any(String), ErrorMessage: null, ErrorCode: null });
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${result.Jwt}` } });
    expect(await validate.json()).toMatchObject({ valid: true, client_id: clientId, token_use: "user_jwt" });
  });

  it("a denial reaches C# as Success false with the SDK's message and the code access_denied", async () => {
    const [message] = await signIn("deny");
    expect(JSON.parse(message!.value)).toEqual({ Success: false, Jwt: null, ErrorMessage: "Login failed: access_denied", ErrorCode: "access_denied" });
  });

  it("closing the popup reaches C# as cancelled; no sign-in within TimeoutMs as timeout (the standalone login's codes)", async () => {
    const [closed, late] = await Promise.all([
      clickSignIn({ ClientId: clientId, RedirectUri: `${origin}/slotgate-callback.html`, SlotgateUrl: server.url }, async (popup) => {
        await popup.waitForSelector("#email");
        // The SDK trusts `closed` once the popup stayed on the service's page 1.5 s (before that a closed handle
        // may be a Cross-Origin-Opener-Policy swap); a player reading the page and closing it takes longer.
        await popup.waitForTimeout(2_000);
        await popup.close();
      }),
      clickSignIn({ ClientId: clientId, RedirectUri: `${origin}/slotgate-callback.html`, SlotgateUrl: server.url, TimeoutMs: 1500 }, async () => {}),
    ]);
    expect(closed).toEqual({ Success: false, Jwt: null, ErrorMessage: "User closed the login window", ErrorCode: "cancelled" });
    expect(late).toEqual({ Success: false, Jwt: null, ErrorMessage: "Login timeout", ErrorCode: "timeout" });
  });

  it("a blocked popup reaches C# as browser_open_failed; a config the SDK refuses as invalid_config", async () => {
    const config = { ClientId: clientId, RedirectUri: `${origin}/slotgate-callback.html`, SlotgateUrl: server.url };
    // A popup blocker makes window.open return null.
    const blocked = await clickSignIn(config, null, () => {
      (globalThis as unknown as { open: () => null }).open = () => null;
    });
    expect(blocked).toEqual({ Success: false, Jwt: null, ErrorMessage: "Popup blocked", ErrorCode: "browser_open_failed" });
    const refused = await clickSignIn({ ...config, SlotgateUrl: "http://auth.example.com" }, null);
    expect(refused).toEqual({
      Success: false,
      Jwt: null,
      ErrorMessage: "slotgateUrl must use https (http is allowed only for localhost)",
      ErrorCode: "invalid_config",
    });
  });

  it("without the script-tag build on the page, C# hears what to add", async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.goto(`${origin}/no-sdk`);
    await p.evaluate(() => {
      (globalThis as unknown as { __config: unknown }).__config = { ClientId: "x", RedirectUri: "https://x.example/cb" };
    });
    await p.click("#signin");
    const [message] = await sent(p);
    await context.close();
    expect(JSON.parse(message!.value)).toMatchObject({
      Success: false,
      Jwt: null,
      ErrorMessage: expect.stringContaining("slotgate.iife.js"),
      ErrorCode: "invalid_config",
    });
  });
});
