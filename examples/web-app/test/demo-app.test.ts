import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoConfigError, loadDemoConfig } from "../src/config.js";
import { createDemoApp } from "../src/create-demo-app.js";

// The demo back end without a Slotgate service: configuration checks, what the browser may see, and step preconditions.

const SECRET = "s3cr3t-client-secret-that-must-never-reach-the-browser";
const KEY = "ab".repeat(32);

describe("loadDemoConfig", () => {
  it("requires the client credentials and names the missing variable", () => {
    expect(() => loadDemoConfig({})).toThrow(
      new DemoConfigError("SLOTGATE_CLIENT_ID is required (run the demo with `npm start` at the repository root, which sets it)"),
    );
    expect(() => loadDemoConfig({ SLOTGATE_CLIENT_ID: "sg_x" })).toThrow(/SLOTGATE_CLIENT_SECRET is required/);
  });

  it("refuses a malformed AES key without echoing it", () => {
    const bad = "not-hex-key";
    let message = "";
    try {
      loadDemoConfig({ SLOTGATE_CLIENT_ID: "sg_x", SLOTGATE_CLIENT_SECRET: SECRET, SLOTGATE_AES_KEY: bad, SLOTGATE_AES_IV: "00".repeat(16) });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SLOTGATE_AES_KEY must be 64 hex characters/);
    expect(message).not.toContain(bad);
  });

  it("takes the marketplace's address for the page's link, and refuses one that is not http(s)", () => {
    const base = { SLOTGATE_CLIENT_ID: "sg_x", SLOTGATE_CLIENT_SECRET: SECRET };
    expect(loadDemoConfig({ ...base, MARKETPLACE_PUBLIC_URL: "http://127.0.0.1:3100/" }).marketplaceUrl).toBe("http://127.0.0.1:3100");
    expect(() => loadDemoConfig({ ...base, MARKETPLACE_PUBLIC_URL: "javascript:alert(1)" })).toThrow(
      new DemoConfigError("MARKETPLACE_PUBLIC_URL must be an http(s) URL"),
    );
  });

  it("applies the documented defaults", () => {
    expect(loadDemoConfig({ SLOTGATE_CLIENT_ID: "sg_x", SLOTGATE_CLIENT_SECRET: SECRET })).toEqual({
      slotgateUrl: "http://127.0.0.1:8080",
      clientId: "sg_x",
      clientSecret: SECRET,
      port: 3000,
      host: "127.0.0.1",
      publicUrl: "http://127.0.0.1:3000",
      cuid: "slotgate-demo",
      spendKey: null,
      marketplaceUrl: null,
    });
  });
});

describe("the demo back end", () => {
  let server: Server;
  let base = "";
  let shutdown: () => Promise<void>;

  beforeAll(async () => {
    const config = loadDemoConfig({
      SLOTGATE_URL: "http://127.0.0.1:9", // nothing listens: these tests never reach the service
      SLOTGATE_CLIENT_ID: "sg_demo",
      SLOTGATE_CLIENT_SECRET: SECRET,
      SLOTGATE_AES_KEY: KEY,
      SLOTGATE_AES_IV: "cd".repeat(16),
      PUBLIC_URL: "http://127.0.0.1:3999",
    });
    const { app, slotgate } = createDemoApp(config);
    shutdown = () => slotgate.shutdown();
    server = await new Promise<Server>((ok) => {
      const s = app.listen(0, "127.0.0.1", () => ok(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await shutdown();
    await new Promise((ok) => server.close(ok));
  });

  it("gives the browser the public settings only (no secret, no AES key)", async () => {
    const res = await fetch(`${base}/api/config`);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      slotgateUrl: "http://127.0.0.1:9",
      clientId: "sg_demo",
      redirectUri: "http://127.0.0.1:3999/slotgate-callback.html",
      cuid: "slotgate-demo",
      spendKeyConfigured: true,
      marketplaceUrl: null,
    });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(KEY);
  });

  it("serves the front end, the popup redirect page and the bundled client SDK", async () => {
    expect(await (await fetch(`${base}/`)).text()).toContain('<script type="module" src="/app.js">');
    expect(await (await fetch(`${base}/slotgate-callback.html`)).text()).toContain("/callback.js");
    const app = await fetch(`${base}/app.js`);
    expect(app.headers.get("content-type")).toMatch(/javascript/);
    expect(await app.text()).toContain("slotgate_"); // the client SDK is inlined (its storage prefix)
  });

  it("refuses token steps before login with a stable code", async () => {
    const res = await fetch(`${base}/api/tokens/buy`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: "100" }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "not_logged_in", message: "Log in first (step 1)." });
  });

  it("answers a missing JWT with the backend SDK's MISSING_TOKEN, without calling the service", async () => {
    const res = await fetch(`${base}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "missing_token" });
  });

  it("answers the service's callback route at once (200) even for an unknown state", async () => {
    const res = await fetch(`${base}/api/slotgate/callback?code=x&state=unknown&success=1`, { method: "POST" });
    expect(res.status).toBe(200);
  });

  it("answers unknown API routes with JSON 404", async () => {
    const res = await fetch(`${base}/api/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", message: "Unknown demo API route." });
  });
});
