// A game backend against a running Slotgate service, step by step:
// provider onboarding → player login → slot info → buy → encrypted spend → balance → release.
// Run: npm start -w @slotgate/example-game-backend   (with `npm start` running at the repository root)
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { ContentTokenClient, SlotgateBackend, SlotgateBackendError, encryptWithSpendKey } from "@slotgate/backend-sdk";
import { devCall } from "./dev-operator.js";
import { registerGameClient } from "./onboarding.js";
import { signUpTestPlayer } from "./test-player.js";

const base = (process.env["SLOTGATE_URL"] ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
// The service's data directory: its development mailbox has the test player's sign-up code (no SMTP_URL).
const dataDir = process.env["SLOTGATE_DATA_DIR"] ?? new URL("../../../packages/server/.slotgate-data", import.meta.url).pathname;
const developer = {
  email: process.env["SLOTGATE_DEV_EMAIL"] ?? "demo@slotgate.dev",
  password: process.env["SLOTGATE_DEV_PASSWORD"] ?? "slotgate-demo-password",
};
const cuid = process.env["CUID"] ?? `example-game-${randomBytes(4).toString("hex")}`;

function log(step: string, value: unknown): void {
  process.stdout.write(`\n== ${step}\n${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);
}

// The backend-SDK callback receiver: the service POSTs the authorization code here (any framework works; plain node:http).
let slotgate: SlotgateBackend | undefined;
const callbackServer = createServer((req, res) => {
  if (slotgate && req.url?.startsWith("/slotgate/callback")) void slotgate.handleCallback(req, res);
  else res.writeHead(404).end();
});
await new Promise<void>((ok) => callbackServer.listen(Number(process.env["CALLBACK_PORT"] ?? 0), "127.0.0.1", ok));
const port = (callbackServer.address() as AddressInfo).port;
const callbackUri = `http://127.0.0.1:${port}/slotgate/callback`;
const loopbackUri = `http://127.0.0.1:${port + 1}/callback`; // registered for the test player's loopback sign-up; never listened on

let exitCode = 0;
try {
  // 1. Onboarding, once per game: a client application (secret shown once) and a provider registration (AES key shown once).
  const client = await registerGameClient(base, developer, [callbackUri, loopbackUri]);
  log("1. registered client application", { client_id: client.client_id, redirect_uris: [callbackUri, loopbackUri] });
  slotgate = new SlotgateBackend({ authServerUrl: base, clientId: client.client_id, clientSecret: client.client_secret, redirectUri: callbackUri });
  const tokens = new ContentTokenClient({ authServerUrl: base, clientId: client.client_id, clientSecret: client.client_secret });

  // 2. A player logs in and the game client sends the JWT here; the backend turns it into slot info.
  const player = await signUpTestPlayer(base, dataDir, client.client_id, loopbackUri);
  const slot = await slotgate.getSlotInfo(player.jwt);
  log("2. slot info (getSlotInfo)", { user_id: slot.id, content_address: slot.content_address, token_nickname: slot.token_nickname, tr_cnt: slot.tr_cnt });
  const status = await slotgate.statusLogin({ accessToken: slot.access_token, userId: slot.id });
  log("   status login", status.ok ? status.response : status.error.message);

  // 3. Register the provider for the cuid: the first registration of a client returns its AES key and IV.
  const owner_addr = `0x${randomBytes(20).toString("hex")}`;
  const provider = await tokens.registerProvider({ cuid, release_per: 50, owner_addr });
  if (!provider.aes_key || !provider.aes_iv) throw new Error("no AES key in the first provider registration");
  const spendKey = { key: provider.aes_key, iv: provider.aes_iv };
  const probe = await tokens.testEncryption("hello slotgate");
  log("3. provider registered", {
    cuid,
    tx_hash: provider.tx_hash,
    local_encryption_matches_service: probe.encrypted_string === encryptWithSpendKey("hello slotgate", spendKey),
  });

  // 4. Purchase: the slot needs XOTN and the player's consent for this cuid; on the embedded chain the dev faucet provides both.
  const fund = await devCall(base, client, { name: "devFundSlot", input: { user_id: slot.id, xotn: "1000", cuid } });
  if (fund) log("   dev faucet", fund);
  log("4. purchase", await tokens.buy({ user_dbkey: slot.id, amount: "1000", cuid }));

  // 5. Spending, recorded with the encrypted message built here (AES-256-CTR under the client's key).
  log("5. encrypted spend", await tokens.increaseUsed({ user_dbkey: slot.id, amount: "250", cuid }, spendKey));

  // 6. Balances, read from the chain.
  log("6. balance", await tokens.balance(slot.content_address, { cuid }));

  // 7. Release: settles release_per % of the platform fee on the newly used tokens; the operator enables it per cuid.
  const enabled = await devCall(base, client, { name: "devEnableRelease", input: { cuid } });
  if (enabled) log("   enable release", enabled);
  log("7. release", await tokens.release({ cuid, slot: slot.content_address }));
  const logout = await slotgate.statusLogout({ accessToken: slot.access_token, userId: slot.id });
  log("   status logout", logout.ok ? logout.response : logout.error.message);
} catch (err) {
  exitCode = 1;
  if (err instanceof SlotgateBackendError && err.serviceStatus === 404 && err.error === "not_found") {
    log("stopped", "This Slotgate server does not serve the content-token API (404 not_found): it is a build without the chain service.");
  } else if (err instanceof SlotgateBackendError) {
    log("stopped", `${err.code}${err.error ? ` (${err.error})` : ""}: ${err.message}`);
  } else if (err instanceof TypeError && String(err.cause ?? "").includes("ECONNREFUSED")) {
    log("stopped", `No Slotgate service at ${base}: run \`npm start\` at the repository root first (or set SLOTGATE_URL).`);
  } else {
    log("stopped", err instanceof Error ? err.message : String(err));
  }
} finally {
  await slotgate?.shutdown();
  callbackServer.close();
}
process.exitCode = exitCode;
