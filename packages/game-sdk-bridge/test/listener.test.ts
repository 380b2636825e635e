import { describe, expect, it, vi } from "vitest";
import { login } from "../src/index.js";
import { startCallbackListener } from "../src/loopback/listener.js";
import { idleBrowser, isListening, rawRequest, SAMPLE_JWT } from "./helpers/fake-browser.js";

/** These tests send no code: a redemption would be a bug. */
const noCodes = async (): Promise<string> => {
  throw new Error("no code expected");
};

describe("loopback listener", () => {
  it("binds 127.0.0.1 only, never all interfaces", async () => {
    const listener = await startCallbackListener(0, "s".repeat(43), noCodes);
    try {
      expect(listener.address).toBe("127.0.0.1");
      expect(listener.port).toBeGreaterThan(0);
    } finally {
      await listener.close();
    }
    expect(await isListening(listener.port)).toBe(false);
  });

  it("close() can be called twice", async () => {
    const listener = await startCallbackListener(0, "state", noCodes);
    await listener.close();
    await expect(listener.close()).resolves.toBeUndefined();
  });

  it("ignores other paths, other methods and foreign Host headers (DNS rebinding), then accepts the real redirect", async () => {
    const browser = idleBrowser();
    const pending = login({ ClientId: "game-1", RedirectUri: "http://127.0.0.1:0/callback" }, { openBrowser: browser.openBrowser });
    await vi.waitUntil(() => browser.opened.length === 1);
    const { port, state } = browser.opened[0]!;
    const good = `/callback?${new URLSearchParams({ jwt: SAMPLE_JWT, state })}`;

    expect((await rawRequest(port, "/favicon.ico")).status).toBe(404);
    expect((await rawRequest(port, "/callback/")).status).toBe(404);
    expect((await rawRequest(port, good, { method: "POST" })).status).toBe(405);
    expect((await rawRequest(port, good, { host: `rebind.example:${port}` })).status).toBe(404);
    expect((await rawRequest(port, good, { host: `localhost:${port}` })).status).toBe(404);

    const page = await rawRequest(port, good);
    expect(page.status).toBe(200);
    const result = await pending;
    expect(result.Success).toBe(true);
    expect(result.Jwt).toBe(SAMPLE_JWT);
  });

  it("lets only the first redirect decide the login", async () => {
    const listener = await startCallbackListener(0, "the-state", noCodes);
    try {
      const first = await rawRequest(listener.port, "/callback?state=wrong");
      expect(first.status).toBe(400);
      const second = await rawRequest(listener.port, `/callback?jwt=${SAMPLE_JWT}&state=the-state`);
      expect(second.status).toBe(404);
      const outcome = await listener.outcome;
      expect(outcome.ok ? "ok" : outcome.error.code).toBe("state_mismatch");
    } finally {
      await listener.close();
    }
  });
});
