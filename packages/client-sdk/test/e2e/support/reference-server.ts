import { randomBytes } from "node:crypto";
import { type ReferenceServer, registerWebClient, signUpPlayer, startReferenceServer as startServer } from "@slotgate/server/testing";
import type { E2eTarget } from "./target.js";

async function waitForHealth(base: string): Promise<void> {
  const deadline = Date.now() + 100_000;
  while (Date.now() < deadline) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`reference server not healthy at ${base}/healthz within 100 s`);
}

/**
 * The real reference server (@slotgate/server), seeded through its public HTTP API only.
 *
 * - `SLOTGATE_E2E_BASE_URL` set: use that running server (with `SLOTGATE_E2E_DATA_DIR`, its data directory, whose
 *   development mailbox holds the sign-up codes).
 * - otherwise: `slotgate-server start` through @slotgate/server/testing (a free port on 127.0.0.1 and a
 *   fresh `SLOTGATE_DATA_DIR`, removed on close), waiting for `GET /healthz` 200.
 */
export async function startReferenceServer(): Promise<E2eTarget> {
  const external = process.env["SLOTGATE_E2E_BASE_URL"]?.replace(/\/+$/, "");
  let server: ReferenceServer | undefined;
  if (!external) server = await startServer({ timeoutMs: 100_000 });
  const service = external ?? server?.url ?? "";
  if (external) await waitForHealth(external);

  let devToken: string | undefined;
  let seedClient: { clientId: string; redirectUri: string } | undefined;

  return {
    name: "reference server",
    baseUrl: service,
    async registerClient(redirectUris) {
      const client = await registerWebClient(service, { name: "client-sdk e2e", redirectUris, ...(devToken ? { devToken } : {}) });
      devToken = client.devToken;
      seedClient ??= { clientId: client.clientId, redirectUri: redirectUris[0] ?? "" };
      return client.clientId;
    },
    async createEndUser() {
      if (!seedClient) throw new Error("register a client before creating end users");
      const email = `player-${randomBytes(6).toString("hex")}@example.test`;
      const password = randomBytes(12).toString("base64url");
      const dataDir = server?.dataDir ?? process.env["SLOTGATE_E2E_DATA_DIR"];
      if (!dataDir) throw new Error("set SLOTGATE_E2E_DATA_DIR to the external server's data directory (its development mailbox has the sign-up codes)");
      const res = await signUpPlayer(service, dataDir, {
        client_id: seedClient.clientId,
        redirect_uri: seedClient.redirectUri,
        state: randomBytes(8).toString("hex"),
        email,
        password,
      });
      if (res.status !== 302) throw new Error(`sign-up answered ${res.status}`);
      return { email, password };
    },
    async close() {
      await server?.close();
    },
  };
}
