import { randomUUID } from "node:crypto";
import { readMnemonicBackup } from "@slotgate/chain-service";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/index.js";
import { type ChainUser, chainOf, newUser, pinOf, postBasic, type TestClient } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { type Receiver, startReceiver } from "../support/receiver.js";

/**
 * Operating the server: one request id followed from the HTTP layer into the chain service, the outbox
 * and the webhook; `GET /metrics` counting a journey; no secret in any debug-level line of it.
 */
const METRICS_TOKEN = "metrics-token-0123456789abcdefghijklmnop";
const MARKETPLACE_SECRET = "marketplace-secret-0123456789abcdefghijkl";
const lines: string[] = [];
let receiver: Receiver;
let server: TestServer;
let client: TestClient;
let user: ChainUser;
/** Secrets seen during the journey (each must be absent from every log line). */
const secrets: Record<string, string> = {};
const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ CHAIN: "anvil", LOG_LEVEL: "debug", MARKETPLACE_URL: receiver.url, MARKETPLACE_SECRET, METRICS_TOKEN }, undefined, {
    log: createLogger("debug", (l) => lines.push(l)),
  });
  client = await registerClient(server.url, { blockchain: true });
  user = await newUser(server, client);
  secrets["client secret"] = client.client_secret;
  secrets["access token"] = user.token;
  secrets["password"] = user.password;
  secrets["marketplace secret"] = MARKETPLACE_SECRET;
  secrets["metrics token"] = METRICS_TOKEN;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe("request ids", () => {
  it("answers the caller's X-Request-Id, or a new one; a malformed one is replaced", async () => {
    const given = await call(server.url, "GET", "/healthz", { headers: { "x-request-id": "caller-id-1" } });
    expect(given.headers.get("x-request-id")).toBe("caller-id-1");
    const made = await call(server.url, "GET", "/healthz");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await call(server.url, "GET", "/healthz", { headers: { "x-request-id": "bad id with spaces" } });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("one id in the server's log line, the chain service's log line and write, the outbox row and the webhook's headers", async () => {
    const id = `journey-${randomUUID()}`;
    const headers = { "x-request-id": id };
    // A purchase: the HTTP layer calls the chain service in process, which records a chain write.
    const pin = pinOf("271828");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: user.token, body: { user_uuid: user.uuid, ...pin } });
    expect(reg.status).toBe(200);
    const wallet = (reg.json["data"] as Array<{ key_share_user: string; mnemonic: string }>)[0]!;
    secrets["key share"] = wallet.key_share_user;
    secrets["sealed mnemonic"] = wallet.mnemonic;
    secrets["mnemonic"] = await readMnemonicBackup(wallet.mnemonic, pin.pin_hash, wallet.key_share_user);
    secrets["PIN hash"] = pin.pin_hash;
    const cuid = `obs-${Date.now()}`;
    const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
      client_id: client.client_id,
      cuid,
      release_per: 20,
      owner_addr: `0x${"cd".repeat(20)}`,
    });
    expect(init.status).toBe(200);
    secrets["AES key"] = String(init.json["aes_key"]);
    await chainOf(server).fundWallet({ user_uuid: user.uuid, xotn: "10000" });
    const approve = await call(server.url, "POST", "/v1/pin/verify", {
      token: user.token,
      body: { user_uuid: user.uuid, ...pin, key_share_user: wallet.key_share_user, operation: { kind: "approve_purchases", cuid, amount: "5000" } },
    });
    expect(approve.status).toBe(200);
    const buy = await call(server.url, "POST", "/v1/development-api/user_buy_content_token", {
      body: { client_id: client.client_id, user_dbkey: user.userId, amount: "1000", cuid },
      headers: { ...headers, authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}` },
    });
    expect(buy.status).toBe(200);
    expect(buy.headers.get("x-request-id")).toBe(id);
    // A status change with the same caller's id: the outbox row, then the signed webhook.
    const status = await call(server.url, "POST", "/v1/oauth/status/login", {
      token: user.token,
      body: { user_id: user.userId, client_id: client.client_id },
      headers,
    });
    expect(status.status).toBe(200);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers["x-request-id"]).toBe(id);
    // The worker logs the delivery after the receiver answered and the row is marked delivered: wait for that line.
    await vi.waitFor(() => expect(parsed().some((l) => l["request_id"] === id && l["msg"] === "outbox message delivered")).toBe(true), { timeout: 10_000 });

    const withId = parsed().filter((l) => l["request_id"] === id);
    expect(
      withId.some((l) => l["msg"] === "request" && l["route"] === "/v1/development-api/user_buy_content_token" && l["status"] === 200),
      "server access log",
    ).toBe(true);
    expect(
      withId.some((l) => l["component"] === "chain-service" && l["msg"] === "chain write requested" && l["method"] === "buyContentToken"),
      "chain-service log",
    ).toBe(true);
    expect(
      withId.some((l) => l["msg"] === "outbox message delivered" && l["topic"] === "marketplace.login_status"),
      "delivery log",
    ).toBe(true);
    expect(await server.sql("SELECT 1 FROM cs_writes WHERE request_id = $1", [id]), "chain write row").not.toHaveLength(0);
    expect(await server.sql("SELECT topic FROM outbox WHERE request_id = $1", [id]), "outbox row").toEqual([{ topic: "marketplace.login_status" }]);
  });
});

describe("GET /metrics", () => {
  it("is refused without the bearer token", async () => {
    expect((await call(server.url, "GET", "/metrics")).status).toBe(401);
    expect((await call(server.url, "GET", "/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  });

  it("counts the login, the status change, the purchase and the webhook delivery (after the journey above)", async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('slotgate_http_requests_total{method="POST",route="/oauth/token",status="200"}'), "login (code exchange)").toBeGreaterThanOrEqual(1);
    expect(value('slotgate_http_requests_total{method="POST",route="/v1/oauth/status/login",status="200"}'), "status change").toBe(1);
    expect(value('slotgate_http_requests_total{method="POST",route="/v1/development-api/user_buy_content_token",status="200"}'), "purchase").toBe(1);
    expect(value('slotgate_http_request_duration_seconds_count{method="POST",route="/v1/development-api/user_buy_content_token",status="200"}')).toBe(1);
    expect(value('slotgate_outbox_deliveries_total{topic="marketplace.login_status",outcome="delivered"}'), "webhook delivery").toBe(1);
    expect(value('slotgate_chain_writes{state="confirmed"}'), "chain writes").toBeGreaterThanOrEqual(2);
    expect(value('slotgate_chain_writes{state="failed"}')).toBe(0);
    expect(value("slotgate_chain_metrics_up")).toBe(1);
    expect(value("slotgate_pbkdf2_queue_length")).toBe(0);
    expect(value("slotgate_pin_lockouts")).toBe(0);
    expect(value("slotgate_paymaster_deposit_wei")).toBeGreaterThan(0);
    expect(text).toMatch(/^slotgate_bundles_total\{size="1"\} [1-9]/m);
    expect(text).toContain("# TYPE slotgate_outbox_depth gauge");
    expect(text).toContain("slotgate_process_cpu_seconds_total");
  });
});

describe("logs", () => {
  it("hold no secret at debug level during the whole journey above, and redact secret fields given by mistake", () => {
    expect(Object.keys(secrets)).toHaveLength(10);
    const all = lines.join("\n");
    expect(lines.length).toBeGreaterThan(20);
    expect(parsed().some((l) => l["level"] === "debug")).toBe(true);
    for (const [what, secret] of Object.entries(secrets)) expect(all.includes(secret), what).toBe(false);

    const own: string[] = [];
    createLogger("debug", (l) => own.push(l)).debug("oops", {
      client_secret: "s1",
      body: { pin_hash: "s2", key_share_user: "s3", nested: { mnemonic: "s4" } },
      req: { headers: { authorization: "Basic s5", cookie: "s6" } },
      aes_key: "s7",
      ok: "visible",
    });
    expect(own[0]).toContain('"ok":"visible"');
    for (const s of ["s1", "s2", "s3", "s4", "s5", "s6", "s7"]) expect(own[0]).not.toContain(`"${s}"`);
  });
});
