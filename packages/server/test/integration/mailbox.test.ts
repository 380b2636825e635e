import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorBodySchema } from "@slotgate/protocol/schemas";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/index.js";
import { BrowserSession, call, devSignup, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The development mailbox (no SMTP_URL): mail is a file in the data directory, listed in the
 * developer center; and no code, token or secret reaches a log line.
 */
let server: TestServer;
let dataDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "slotgate-mailbox-"));
  server = await startTestServer({ SMTP_URL: "", SLOTGATE_DATA_DIR: dataDir, LOG_LEVEL: "debug" }, undefined, {
    log: createLogger("debug", (l) => logLines.push(l)),
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("development mailbox", () => {
  it("keeps the sign-up mail in {dataDir}/mailbox and lists it in the developer center, with the DEVELOPMENT DEFAULT warning", async () => {
    expect(server.slotgate.services.mailer.kind).toBe("development");
    const client = await registerClient(server.url);
    const email = randomEmail("devbox");
    const browser = new BrowserSession(server.url);
    const params = { client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, response_type: "code", state: "s" };
    const page = await browser.open(params);
    const step = await browser.submit({ ...params, csrf_token: page.csrf, email, password: "user-password-1", decision: "approve", intent: "signup" });
    expect(step.status).toBe(200);
    expect(step.html).toContain('id="slotgate-dev-mailbox"');
    expect(readdirSync(join(dataDir, "mailbox"))).toHaveLength(1);
    const listed = await call(server.url, "GET", "/v1/dev-user/mailbox", { token: client.devToken });
    expect(listed.status).toBe(200);
    expect(String(listed.json["warning"])).toMatch(/^DEVELOPMENT DEFAULT/);
    const messages = listed.json["messages"] as Array<{ to: string; subject: string; text: string }>;
    expect(messages.at(-1)).toMatchObject({ to: email, subject: expect.stringContaining("Confirm your email") });
    const code = /\b([0-9]{6})\b/.exec(messages.at(-1)!.text)![1]!;
    const done = await browser.submit({ ...params, csrf_token: step.csrf!, challenge: step.challenge!, otp: code, decision: "approve" });
    expect(done.status).toBe(302);

    const html = await (await fetch(`${server.url}/developer`)).text();
    expect(html).toContain('id="mailbox"');
    expect((await call(server.url, "GET", "/v1/dev-user/mailbox")).status).toBe(401);
    expect((await call(server.url, "GET", "/v1/dev-user/mailbox", { token: "x.y.z" })).status).toBe(401);

    // Nothing secret in any log line: not the code, the password, the challenge id or the client secret.
    const log = logLines.join("\n");
    for (const secret of [code, "user-password-1", step.challenge!, client.client_secret]) expect(log).not.toContain(secret);
    expect(log).toContain("one-time code mailed");
  });

  it("GET /v1/dev-user/mailbox with arbitrary bearer tokens and query strings: 4xx error body, nothing changes (property)", async () => {
    const dev = await devSignup(server.url);
    const before = readdirSync(join(dataDir, "mailbox")).length;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 20 })),
        async (token, query) => {
          const res = await call(server.url, "GET", `/v1/dev-user/mailbox?${new URLSearchParams(query)}`, {
            headers: { authorization: `Bearer ${token.replace(/[\r\n]/g, "")}` },
          });
          expect(res.status).toBe(401);
          expect(errorBodySchema.safeParse(res.json).success).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
    expect((await call(server.url, "GET", "/v1/dev-user/mailbox", { token: dev.token })).status).toBe(200);
    expect(readdirSync(join(dataDir, "mailbox"))).toHaveLength(before);
  });
});

describe("with SMTP_URL there is no development mailbox", () => {
  let smtp: TestServer;
  beforeAll(async () => {
    smtp = await startTestServer();
  });
  afterAll(async () => smtp?.close());

  it("answers 404 not_found", async () => {
    const dev = await devSignup(smtp.url);
    const res = await call(smtp.url, "GET", "/v1/dev-user/mailbox", { token: dev.token });
    expect([res.status, res.json["error"]]).toEqual([404, "not_found"]);
  });
});
