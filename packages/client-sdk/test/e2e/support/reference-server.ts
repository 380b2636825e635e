import { randomBytes } from "node:crypto";
import { type ReferenceServer, startReferenceServer as startServer } from "@slotgate/server/testing";
import type { E2eTarget } from "./target.js";

async function waitForHealth(base: string): Promise<void> {
  const deadline = Date.now() + 100_000;
  while (Date.now() < deadline) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`reference server not healthy at ${base}/healthz within 100 s`);
}

/**
 * The real reference server (@slotgate/server), seeded through its public HTTP API only.
 *
 * - `SLOTGATE_E2E_BASE_URL` set: use that running server.
 * - otherwise: `slotgate-server start` through @slotgate/server/testing (a free port on 127.0.0.1 and a
 *   fresh `SLOTGATE_DATA_DIR`, removed on close), waiting for `GET /healthz` 200.
 */
export async function startReferenceServer(): Promise<E2eTarget> {
  const external = process.env["SLOTGATE_E2E_BASE_URL"]?.replace(/\/+$/, "");
  let server: ReferenceServer | undefined;
  if (!external) server = await startServer({ timeoutMs: 100_000 });
  const service = external ?? server?.url ?? "";
  if (external) await waitForHealth(external);

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
      await server?.close();
    },
  };
}
