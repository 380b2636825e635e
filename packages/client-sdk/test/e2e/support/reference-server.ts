import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { E2eTarget } from "./target.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForHealth(base: string, child: ChildProcess | undefined, output: () => string): Promise<void> {
  const deadline = Date.now() + 100_000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`reference server exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`reference server not healthy at ${base}/healthz within 100 s:\n${output()}`);
}

/**
 * The real reference server (@slotgate/server), seeded through its public HTTP API only.
 *
 * - `SLOTGATE_E2E_BASE_URL` set: use that running server.
 * - otherwise: `npm run start` in the server package with `PORT` (a free port), `HOST=127.0.0.1` and a
 *   fresh working directory in `SLOTGATE_DATA_DIR`, then wait for `GET /healthz` 200.
 */
export async function startReferenceServer(): Promise<E2eTarget> {
  let base = process.env["SLOTGATE_E2E_BASE_URL"]?.replace(/\/+$/, "");
  let child: ChildProcess | undefined;
  let log = "";
  if (!base) {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const serverDir = dirname(createRequire(import.meta.url).resolve("@slotgate/server/package.json"));
    child = spawn("npm", ["run", "start", "--silent"], {
      cwd: serverDir,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        SLOTGATE_DATA_DIR: mkdtempSync(join(tmpdir(), "slotgate-client-sdk-e2e-")),
      },
    });
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-8000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
  }
  const service = base;
  await waitForHealth(service, child, () => log);

  const call = async (path: string, init: RequestInit): Promise<Response> => {
    const res = await fetch(service + path, init);
    if (!res.ok && res.status !== 302) throw new Error(`${init.method ?? "GET"} ${path} -> ${res.status}: ${await res.text()}`);
    return res;
  };
  const devEmail = `dev-${randomBytes(6).toString("hex")}@example.test`;
  const devPassword = randomBytes(12).toString("base64url");
  const signup = await call("/v1/dev-user/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: devEmail, password: devPassword }),
  });
  const devToken = ((await signup.json()) as { token: string }).token;
  let seedClient: { clientId: string; redirectUri: string } | undefined;

  return {
    name: "reference server",
    baseUrl: service,
    async registerClient(redirectUris) {
      const res = await call("/v1/dev-user/clients", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${devToken}` },
        body: JSON.stringify({
          name: "client-sdk e2e",
          redirect_uris: redirectUris,
          download_url: "https://game.example/download",
          web_url: new URL(redirectUris[0] ?? "https://game.example").origin,
          platform: "web",
          blockchain: false,
        }),
      });
      const clientId = ((await res.json()) as { client_id: string }).client_id;
      seedClient ??= { clientId, redirectUri: redirectUris[0] ?? "" };
      return clientId;
    },
    async createEndUser() {
      if (!seedClient) throw new Error("register a client before creating end users");
      const email = `player-${randomBytes(6).toString("hex")}@example.test`;
      const password = randomBytes(12).toString("base64url");
      const params = {
        client_id: seedClient.clientId,
        redirect_uri: seedClient.redirectUri,
        response_type: "code",
        state: randomBytes(8).toString("hex"),
      };
      const page = await call(`/oauth/authorize?${new URLSearchParams(params)}`, { headers: { accept: "text/html" } });
      const html = await page.text();
      const input = /<input[^>]*name="csrf_token"[^>]*>/.exec(html)?.[0] ?? "";
      const csrf = /value="([^"]*)"/.exec(input)?.[1];
      const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      if (!csrf) throw new Error("authorize page has no csrf_token input");
      await call("/oauth/authorize", {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, accept: "text/html" },
        body: new URLSearchParams({ ...params, csrf_token: csrf, email, password, decision: "approve", intent: "signup" }),
      });
      return { email, password };
    },
    async close() {
      if (child?.pid && child.exitCode === null) {
        const exited = new Promise((resolve) => child?.once("exit", resolve));
        process.kill(-child.pid, "SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
    },
  };
}
