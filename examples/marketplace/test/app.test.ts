import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketplaceConfigError, loadMarketplaceConfig } from "../src/config.js";
import { MARKETPLACE_SECRET, type RunningMarketplace, startMarketplace } from "./support/marketplace.js";

const base = { SLOTGATE_CLIENT_ID: "sg_m", SLOTGATE_CLIENT_SECRET: "s", MARKETPLACE_SECRET, GAME_CUID: "slotgate-demo", GAME_CLIENT_ID: "sg_game" };

describe("loadMarketplaceConfig", () => {
  it("names a missing or malformed variable, never its value", () => {
    expect(() => loadMarketplaceConfig({ ...base, MARKETPLACE_SECRET: undefined })).toThrow(
      new MarketplaceConfigError("MARKETPLACE_SECRET is required (run the marketplace with `npm start` at the repository root, which sets it)"),
    );
    expect(() => loadMarketplaceConfig({ ...base, MARKETPLACE_SECRET: "short" })).toThrow(/MARKETPLACE_SECRET must be at least 32 characters/);
    expect(() => loadMarketplaceConfig({ ...base, GAME_CLIENT_ID: undefined })).toThrow(/GAME_CLIENT_ID is required/);
  });

  it("applies the documented defaults", () => {
    const config = loadMarketplaceConfig(base);
    expect(config).toMatchObject({
      slotgateUrl: "http://127.0.0.1:8080",
      port: 3100,
      host: "127.0.0.1",
      publicUrl: "http://127.0.0.1:3100",
      dataDir: resolve(".marketplace-data"),
      databaseUrl: null,
      clientId: "sg_m",
      clientSecret: "s",
      webhookToleranceSeconds: 300,
    });
    expect([...config.games]).toEqual([["slotgate-demo", "sg_game"]]);
  });
});

describe("the marketplace app", () => {
  let market: RunningMarketplace;
  beforeAll(async () => {
    market = await startMarketplace();
  });
  afterAll(async () => {
    await market?.stop();
  });

  it("serves the page with the ids the browser test drives, and the bundled client SDK", async () => {
    const html = await (await fetch(`${market.origin}/`)).text();
    for (const id of [
      "login",
      "logout",
      "whoami",
      "message",
      "pin-section",
      "pin-register",
      "my-slots",
      "listings",
      "sale-result",
      "sale-owner",
      "sale-tr-cnt",
    ])
      expect(html).toContain(`id="${id}"`);
    const app = await fetch(`${market.origin}/app.js`);
    expect(app.headers.get("content-type")).toMatch(/javascript/);
    const script = await app.text();
    expect(script).toContain("slotgate_"); // the client SDK, inlined
    expect(script).toContain("slotgate_wallet"); // with its wallet window
    expect(await (await fetch(`${market.origin}/slotgate-callback.html`)).text()).toContain("/callback.js");
  });

  it("gives the page public settings only", async () => {
    const text = await (await fetch(`${market.origin}/api/config`)).text();
    expect(JSON.parse(text)).toEqual({
      slotgateUrl: "http://127.0.0.1:9",
      clientId: "sg_market",
      redirectUri: "http://127.0.0.1:0/slotgate-callback.html",
      games: ["test-game"],
    });
    expect(text).not.toContain(MARKETPLACE_SECRET);
  });

  it("refuses steps before sign-in, non-JSON state changes, and unknown routes with stable codes", async () => {
    const post = (path: string, init: RequestInit = { headers: { "content-type": "application/json" }, body: "{}" }) =>
      fetch(market.origin + path, { method: "POST", ...init });
    expect(await (await post("/api/listings")).json()).toEqual({ error: "not_signed_in", message: "Sign in with Slotgate first." });
    const form = await post("/api/listings/1/buy", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect(form.status).toBe(415);
    const bad = await post("/api/session", { headers: { "content-type": "application/json" }, body: "{not json" });
    expect(bad.status).toBe(400);
    expect((await fetch(`${market.origin}/api/nope`)).status).toBe(404);
    expect(await (await fetch(`${market.origin}/api/session`)).json()).toEqual({ user: null, game_status: {} });
  });
});
