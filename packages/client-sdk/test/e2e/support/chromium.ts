import { chromiumLaunchOptions } from "@slotgate/server/testing";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, headless, with the flags of TOOLCHAIN.md and popup blocking on (the server's testing entry says which). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}
