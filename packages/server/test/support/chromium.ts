import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { chromiumLaunchOptions } from "../../src/testing/chromium-options.js";
import type { SmtpSink } from "./smtp.js";

/** Headless Chromium (Debian's /usr/bin/chromium, or SLOTGATE_CHROMIUM) with the flags of TOOLCHAIN.md. */
export function launchChromium(): Promise<Browser> {
  // The project's Chromium flags (TOOLCHAIN.md), with Playwright's default arguments kept as they were here.
  const { ignoreDefaultArgs: _keepDefaults, ...options } = chromiumLaunchOptions();
  return chromium.launch(options);
}

/** An app of its own origin on 127.0.0.1:0 that answers every path with one HTML page. */
export async function serveHtml(html: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** On the "check your email" page: types the code mailed to `email` (read from the SMTP sink) and continues. */
export async function enterMailedCode(page: Page, mail: SmtpSink, email: string): Promise<void> {
  await page.waitForSelector("#otp");
  await page.fill("#otp", await mail.nextCode(email));
  await page.click('#code-form button[value="approve"]');
}
