import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.js";
import { launchChromium, serveHtml } from "../support/chromium.js";
import { call, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * A studio's brand on its sign-in popup in real headless Chromium: the logo (served from the service's
 * origin under the pages' strict CSP) and the accent colour show on that client's popup and on no other
 * client's; "Secured by Slotgate" and the verified origin stay visible; the developer center refuses an SVG
 * logo. Saves the popup in Japanese and Arabic, light and dark (test-results/screenshots; docs/images with
 * SLOTGATE_UPDATE_SCREENSHOTS=1), the ones docs/guides/hosted-pages.md shows (Japanese needs a CJK font, e.g. fonts-ipafont-gothic).
 */
const repo = join(import.meta.dirname, "../../../..");
const shots = process.env["SLOTGATE_UPDATE_SCREENSHOTS"] === "1" ? join(repo, "docs/images") : join(import.meta.dirname, "../../test-results/screenshots");
const ACCENT = "#6a1b9a";

let server: TestServer;
let browser: Browser;
let opener: Awaited<ReturnType<typeof serveHtml>>;
let branded: Awaited<ReturnType<typeof registerClient>>;
let plain: Awaited<ReturnType<typeof registerClient>>;

/** An RGB PNG of `size` pixels square: solid `rgb`, or random noise (which does not compress) when `noise`. */
function png(size: number, rgb: [number, number, number], noise = false): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = () => Buffer.concat([Buffer.from([0]), noise ? randomBytes(size * 3) : Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const OPENER = `<!doctype html><html><body><button id="login">Log in</button><script>
document.getElementById("login").addEventListener("click", () => window.open(window.__authorizeUrl, "slotgate", "width=480,height=720"));
</script></body></html>`;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startTestServer();
  browser = await launchChromium();
  opener = await serveHtml(OPENER);
  branded = await registerClient(server.url, { name: "Star Quest", redirect_uris: [`${opener.origin}/done`], web_url: `${opener.origin}/` });
  plain = await registerClient(server.url, { name: "Plain Game", redirect_uris: [`${opener.origin}/done`], web_url: `${opener.origin}/` });
  const saved = await call(server.url, "PATCH", `/v1/dev-user/clients/${branded.client_id}/brand`, {
    token: branded.devToken,
    body: {
      display_name: "Star Quest Online",
      accent_color: ACCENT,
      logo: { content_type: "image/png", data_base64: png(64, [106, 27, 154]).toString("base64") },
    },
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  opener?.server.close();
  await server?.close();
});

/** Opens `client`'s sign-in popup from its app's page, as the client SDK does. */
async function popupOf(client: { client_id: string }, options: { locale?: string; theme?: "light" | "dark"; uiLocales?: string; axe?: boolean } = {}) {
  // bypassCSP only where the test injects axe-core; elsewhere the logo loads under the page's own CSP.
  const context = await browser.newContext({
    colorScheme: options.theme ?? "light",
    bypassCSP: options.axe === true,
    ...(options.locale ? { locale: options.locale } : {}),
  });
  const page = await context.newPage();
  await page.goto(`${opener.origin}/app`);
  const query = { client_id: client.client_id, redirect_uri: `${opener.origin}/done`, response_type: "code", state: "st-brand", display: "popup" };
  const url = `${server.url}/oauth/authorize?${new URLSearchParams(options.uiLocales ? { ...query, ui_locales: options.uiLocales } : query)}`;
  await page.evaluate((u) => {
    (globalThis as unknown as { __authorizeUrl: string }).__authorizeUrl = u;
  }, url);
  const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#login")]);
  await popup.waitForSelector("#email");
  await popup.waitForLoadState("load");
  return { popup, close: () => context.close() };
}

const approveBackground = (popup: Page) =>
  popup.evaluate(() => getComputedStyle(document.querySelector('#email-form button[value="approve"]')!).backgroundColor);
const logoLoaded = (popup: Page) =>
  popup.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>("#slotgate-brand-logo");
    return img ? img.complete && img.naturalWidth : null;
  });

describe("a studio's brand on its sign-in popup", () => {
  it("the branded client's popup shows its logo (loaded from the service under the CSP), name and accent", async () => {
    const { popup, close } = await popupOf(branded);
    expect(await logoLoaded(popup)).toBe(64);
    expect(await popup.locator("#slotgate-brand-logo").getAttribute("src")).toMatch(new RegExp(`^/v1/brand/${branded.client_id}/logo\\?v=[0-9a-f]{64}$`));
    expect(await popup.locator("#slotgate-brand-name").innerText()).toBe("Star Quest Online");
    expect(await approveBackground(popup)).toBe("rgb(106, 27, 154)");
    expect(await popup.locator("#slotgate-secured").innerText()).toContain("Secured by Slotgate");
    expect(await popup.locator("#slotgate-origin").innerText()).toBe(opener.origin);
    await close();
  });

  it("the CSP allows images from the service's own origin on the branded client's pages only", async () => {
    const csp = async (client: { client_id: string }) => {
      const query = { client_id: client.client_id, redirect_uri: `${opener.origin}/done`, response_type: "code", state: "s", display: "popup" };
      return (await fetch(`${server.url}/oauth/authorize?${new URLSearchParams(query)}`)).headers.get("content-security-policy")!;
    };
    expect(await csp(branded)).toMatch(/^default-src 'none'; .*; img-src 'self'; frame-ancestors 'none'/);
    expect(await csp(plain)).not.toContain("img-src");
  });

  it("another client's popup shows neither that logo nor that colour, but the same 'Secured by' line", async () => {
    const { popup, close } = await popupOf(plain);
    expect(await logoLoaded(popup)).toBeNull();
    expect(await popup.content()).not.toContain(branded.client_id);
    expect(await popup.locator("#slotgate-brand-name").innerText()).toBe("Plain Game");
    expect(await approveBackground(popup)).not.toBe("rgb(106, 27, 154)");
    expect(await popup.locator("#slotgate-secured").innerText()).toContain("Secured by Slotgate");
    await close();
  });

  it("screenshots: the branded popup in Japanese and Arabic, light and dark (axe-core finds no serious or critical violation on it)", async () => {
    for (const [lang, uiLocales] of [
      ["ja", "ja"],
      ["ar", "ar"],
    ] as const) {
      for (const theme of ["light", "dark"] as const) {
        const { popup, close } = await popupOf(branded, { theme, uiLocales });
        expect(await popup.getAttribute("html", "lang")).toBe(lang);
        expect(await logoLoaded(popup)).toBe(64);
        await popup.screenshot({ path: join(shots, `sign-in-popup-${lang}-${theme}.png`), fullPage: true });
        await close();
        const audited = await popupOf(branded, { theme, uiLocales, axe: true });
        expect(await seriousViolations(audited.popup), `${lang} ${theme}`).toEqual([]);
        await audited.close();
      }
    }
  });

  it("the developer center sets the brand from its form, and refuses an SVG or oversized logo at upload with the reason", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/developer`);
    await page.fill("#email", randomEmail("brand"));
    await page.fill("#password", "dev-password-123");
    await page.click('#auth-form button[value="signup"]');
    await page.waitForSelector("#client-form", { state: "visible" });
    await page.fill("#name", "Moon Racer");
    await page.fill("#redirect_uris", `${opener.origin}/done`);
    await page.fill("#download_url", "https://moon.example/download");
    await page.fill("#web_url", "https://moon.example/");
    await page.click('#client-form button[type="submit"]');
    await page.waitForSelector("#secret", { state: "visible" });
    const clientId = (await page.textContent("#new-id"))!;
    await page.click('button[aria-label="Manage Moon Racer"]');
    await page.waitForSelector("#brand-form", { state: "visible" });

    const upload = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      await page.evaluate(() => {
        document.getElementById("error")!.textContent = "";
        document.getElementById("notice")!.textContent = "";
      });
      await page.setInputFiles("#b-logo_file", file);
      await page.click("#b-save");
      await page.waitForFunction(() => (document.getElementById("error")!.textContent ?? "") + (document.getElementById("notice")!.textContent ?? "") !== "");
      return { error: await page.textContent("#error"), notice: await page.textContent("#notice") };
    };
    const svg = await upload({
      name: "logo.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><script>alert(1)</script></svg>'),
    });
    expect(svg.error).toMatch(/SVG/);
    const disguised = await upload({
      name: "logo.png",
      mimeType: "image/png",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"></svg>'),
    });
    expect(disguised.error).toMatch(/SVG/);
    const big = png(118, [0, 0, 0], true); // just over the limit (a larger file meets the body-size limit first: 413 payload_too_large)
    expect(big.length).toBeGreaterThan(40 * 1024);
    const oversized = await upload({ name: "logo.png", mimeType: "image/png", buffer: big });
    expect(oversized.error).toMatch(/at most 40960 bytes/);
    const refused = await call(server.url, "GET", `/v1/brand/${clientId}/logo`);
    expect(refused.status, "no logo was stored").toBe(404);

    await page.fill("#b-display_name", "Moon Racer Deluxe");
    await page.fill("#b-accent_color", "#0b5394");
    const ok = await upload({ name: "logo.png", mimeType: "image/png", buffer: png(48, [11, 83, 148]) });
    expect(ok).toEqual({ error: "", notice: "Brand saved." });
    await page.waitForFunction(() => {
      const img = document.getElementById("b-logo") as HTMLImageElement;
      return img.complete && img.naturalWidth === 48;
    });
    expect(errors).toEqual([]);
    await context.close();

    const { popup, close } = await popupOf({ client_id: clientId });
    expect(await popup.locator("#slotgate-brand-name").innerText()).toBe("Moon Racer Deluxe");
    expect(await logoLoaded(popup)).toBe(48);
    expect(await approveBackground(popup)).toBe("rgb(11, 83, 148)");
    await close();
  });
});
