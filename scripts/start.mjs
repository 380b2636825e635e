#!/usr/bin/env node
// `npm start`: the whole Slotgate journey on one machine.
//   1. starts the reference server (`slotgate-server start`) on its embedded database and its development chain (an
//      Anvil node on 127.0.0.1:8545 whose state, like the database's, is kept in the data directory);
//   2. seeds, through the public API only: the demo developer, a web client registered with the demo app's
//      redirect URIs, a content-token provider registration for the demo cuid (its AES spend key is kept in
//      the data directory, mode 0600) with release enabled, and a demo player account;
//   3. starts the demo web app (examples/web-app) and the reference marketplace (examples/marketplace: its own web
//      client, its own database in the data directory, the service's signed login-status webhooks) and prints the
//      URLs and the demo credentials.
// Ctrl-C stops every process; a restart finds everything as it was. Environment: PORT (service, 8080), WEB_PORT
// (demo app, 3000), MARKET_PORT (marketplace, 3100), HOST (127.0.0.1), SLOTGATE_DATA_DIR
// (packages/server/.slotgate-data), DEMO_CUID (slotgate-demo), ANVIL_PORT (the chain's JSON-RPC port, 8545); every
// server variable passes through.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

const HOST = process.env.HOST ?? "127.0.0.1";
const PORT = Number(process.env.PORT ?? 8080);
const WEB_PORT = Number(process.env.WEB_PORT ?? 3000);
const MARKET_PORT = Number(process.env.MARKET_PORT ?? 3100);
const DATA_DIR = resolve(process.env.SLOTGATE_DATA_DIR ?? join(root, "packages/server/.slotgate-data"));
const CUID = process.env.DEMO_CUID ?? "slotgate-demo";
// Passkeys need a domain name: on the loopback default the service is reached as localhost.
const SERVICE = `http://${HOST === "127.0.0.1" ? "localhost" : HOST}:${PORT}`;
const IDP_PORT = Number(process.env.LOCAL_IDP_PORT ?? 8090);
const WEB = `http://${HOST}:${WEB_PORT}`;
const MARKET = `http://${HOST}:${MARKET_PORT}`;
const DEV = { email: process.env.DEMO_DEV_EMAIL ?? "demo@slotgate.dev", password: process.env.DEMO_DEV_PASSWORD ?? "slotgate-demo-password" };
const PLAYER = { email: "player@slotgate.dev", password: "slotgate-player-password" };
/** Dev-only operator route of the reference server on its development chain (see examples/web-app/src/dev-operator.ts). */
const DEV_ENABLE_RELEASE_PATH = "/v1/dev/enable_release";

for (const [name, value] of [
  ["PORT", PORT],
  ["WEB_PORT", WEB_PORT],
  ["MARKET_PORT", MARKET_PORT],
  ["LOCAL_IDP_PORT", IDP_PORT],
]) {
  if (!Number.isInteger(value) || value < 1 || value > 65535) await fail(`${name} must be a port number (1-65535)`, 2);
}

const children = [];
let stopping = false;

/** Reports, stops every child and never resolves (so `await fail(…)` ends the script's flow). */
function fail(message, code = 1) {
  if (!stopping) process.stderr.write(`\nnpm start: ${message}\n`);
  stopAll(code);
  return new Promise(() => undefined);
}

/**
 * Stops every child and exits. `consoleInterrupt`: Ctrl-C in a Windows console, which reaches every process of the
 * console, children included, so each stops itself as on SIGINT. Windows has no SIGTERM (`child.kill` ends a process
 * at once, without its clean stop), so there the children get 5 s to stop on their own first.
 */
function stopAll(code, consoleInterrupt = false) {
  if (stopping) return;
  stopping = true;
  const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
  if (alive.length === 0) process.exit(code);
  let left = alive.length;
  for (const child of alive) {
    child.once("exit", () => {
      left -= 1;
      if (left === 0) process.exit(code);
    });
  }
  const windowsConsole = consoleInterrupt && process.platform === "win32";
  if (!windowsConsole) for (const child of alive) child.kill("SIGTERM");
  setTimeout(() => {
    for (const child of alive) if (child.exitCode === null) child.kill(windowsConsole ? "SIGTERM" : "SIGKILL");
    if (!windowsConsole) process.exit(code);
  }, 5000).unref();
  if (windowsConsole) setTimeout(() => process.exit(code), 10_000).unref();
}
process.once("SIGINT", () => stopAll(0, true));
process.once("SIGTERM", () => stopAll(0));

/** The server's own start-up banner (its seeded demo client is not the one the demo app uses). */
const SERVER_BANNER = /^\s+(Slotgate is running at|Developer center:|Demo developer:|Demo client_id:)/;
/** The server's lines about its development chain: shown in this script's banner. */
const CHAIN_BANNER = /^\s+(Development chain|Contracts): (.*)$/;
const chainInfo = {};

/** A JSON log line as `level: msg`, anything else as it is. */
function readable(line) {
  try {
    const entry = JSON.parse(line);
    if (entry && typeof entry.msg === "string") return `${entry.level ?? "log"}: ${entry.msg}`;
  } catch {
    // not JSON
  }
  return line;
}

/** Starts a child process whose output lines are prefixed; its early exit stops everything. */
function startChild(label, script, env) {
  const child = spawn(process.execPath, [script, ...(label === "slotgate" ? ["start"] : [])], {
    cwd: dirname(script),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      const chainLine = CHAIN_BANNER.exec(line);
      if (chainLine) {
        chainInfo[chainLine[1]] = chainLine[2];
        return;
      }
      if (line.trim() === "" || SERVER_BANNER.test(line)) return; // this script prints the complete banner
      process.stderr.write(`[${label}] ${readable(line)}\n`);
    });
  }
  child.once("exit", (code, signal) => {
    if (!stopping) void fail(`${label} exited (${signal ?? `code ${code}`}); see its output above`);
  });
  return child;
}

async function waitForHealth(url, label, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return fail("stopped");
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return fail(`${label} did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function call(method, path, { body, headers = {} } = {}) {
  const res = await fetch(SERVICE + path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
}

function writeSecretJson(file, value) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2), { mode: 0o600 });
}

/** The demo developer's token: log in, or sign up on a database that was not seeded (e.g. PostgreSQL). */
async function developerToken() {
  let r = await call("POST", "/v1/dev-user/login_devuser", { body: DEV });
  if (r.status === 401) r = await call("POST", "/v1/dev-user/signup", { body: DEV });
  if (r.status === 409) r = await call("POST", "/v1/dev-user/login_devuser", { body: DEV }); // seeded meanwhile by the server
  if (r.status >= 300 || typeof r.body.token !== "string") throw new Error(`demo developer login failed: ${r.body.error ?? r.status}`);
  return r.body.token;
}

/**
 * A web client registered for one of the apps started here (the demo app or the marketplace) with the app's two
 * redirect URIs (popup page and backend callback), kept in the data directory (mode 0600) across restarts.
 */
async function webClient({ name, origin, file, seededFile = null, blockchain }) {
  const redirectUris = [`${origin}/slotgate-callback.html`, `${origin}/api/slotgate/callback`];
  const fits = (c) => c && typeof c.client_secret === "string" && redirectUris.every((u) => c.redirect_uris?.includes(u));
  const seeded = seededFile ? readJson(join(DATA_DIR, seededFile)) : null; // written by the server's own demo seeding
  if (fits(seeded)) return seeded;
  const path = join(DATA_DIR, file);
  const cached = readJson(path);
  if (fits(cached)) return cached;
  const token = await developerToken();
  const r = await call("POST", "/v1/dev-user/clients", {
    headers: { authorization: `Bearer ${token}` },
    body: { name, redirect_uris: redirectUris, download_url: `${origin}/`, web_url: `${origin}/`, platform: "web", blockchain },
  });
  if (r.status !== 201) throw new Error(`registering the ${name} client failed: ${r.body.error ?? r.status} ${r.body.message ?? ""}`);
  const client = { client_id: r.body.client_id, client_secret: r.body.client_secret, redirect_uris: redirectUris };
  writeSecretJson(path, client);
  return client;
}

/** The secret the service signs its login-status webhooks with and the marketplace presents: kept in the data directory. */
function marketplaceSecret() {
  if (process.env.MARKETPLACE_SECRET) return process.env.MARKETPLACE_SECRET;
  const file = join(DATA_DIR, "marketplace-secret.json");
  const saved = readJson(file);
  if (typeof saved?.secret === "string" && saved.secret.length >= 32) return saved.secret;
  const secret = randomBytes(32).toString("base64url");
  writeSecretJson(file, { secret });
  return secret;
}

/**
 * Registers the provider for the demo cuid and enables release. The AES key and IV are shown only at a client's first
 * registration, so they are kept in the data directory. A saved registration is checked (`test_encryption` must
 * match the saved key) and made again when the service no longer knows it (e.g. a data directory whose chain was removed).
 */
async function provider(client) {
  const { ContentTokenClient, encryptWithSpendKey } = await import("@slotgate/backend-sdk");
  const tokens = new ContentTokenClient({ authServerUrl: SERVICE, clientId: client.client_id, clientSecret: client.client_secret });
  const file = join(DATA_DIR, "demo-provider.json");
  const notes = [];
  const notServed = (err) => err?.serviceStatus === 404 && err?.error === "not_found";
  let saved = readJson(file);
  if (saved && (saved.client_id !== client.client_id || !saved.cuid?.startsWith(CUID))) saved = null;
  if (saved) {
    try {
      const probe = await tokens.testEncryption("slotgate-demo-probe");
      if (probe.encrypted_string !== encryptWithSpendKey("slotgate-demo-probe", { key: saved.aes_key, iv: saved.aes_iv })) saved = null;
    } catch (err) {
      if (notServed(err))
        return { cuid: CUID, spendKey: null, notes: ["content tokens: this server does not serve /v1/development-api; the demo's token steps will say so"] };
      saved = null; // e.g. provider_not_registered: a data directory whose chain was removed
    }
  }
  if (!saved) {
    const owner_addr = `0x${randomBytes(20).toString("hex")}`;
    let cuid = CUID;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await tokens.registerProvider({ cuid, release_per: 50, owner_addr });
        const key = r.aes_key;
        const iv = r.aes_iv;
        if (!key || !iv) throw new Error("the client's AES key was issued earlier and is not in the data directory");
        saved = { client_id: client.client_id, cuid, owner_addr, aes_key: key, aes_iv: iv };
        writeSecretJson(file, saved);
        break;
      } catch (err) {
        if (notServed(err))
          return { cuid: CUID, spendKey: null, notes: ["content tokens: this server does not serve /v1/development-api; the demo's token steps will say so"] };
        // The cuid is taken (registered in an earlier run on a chain that kept it): use a fresh one once.
        if (attempt === 0 && err?.serviceStatus === 409) {
          cuid = `${CUID}-${randomBytes(3).toString("hex")}`;
          continue;
        }
        notes.push(`content tokens: provider registration for ${cuid} failed (${err?.message ?? err})`);
        return { cuid, spendKey: null, notes };
      }
    }
  }
  // Release is off for a new cuid; on the development chain the server offers a dev operator route to switch it on.
  const basic = Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64");
  const r = await call("POST", DEV_ENABLE_RELEASE_PATH, { headers: { authorization: `Basic ${basic}` }, body: { cuid: saved.cuid } });
  if (r.status === 404 && r.body.error === "not_found")
    notes.push(
      `release: this server has no dev operator route ${DEV_ENABLE_RELEASE_PATH} (it serves it on the development chain only); release answers release_disabled until the operator enables it`,
    );
  else if (r.status >= 300) notes.push(`release: enabling failed (${r.body.error ?? r.status})`);
  return { cuid: saved.cuid, spendKey: { key: saved.aes_key, iv: saved.aes_iv }, notes };
}

/**
 * Creates the demo player through the sign-up form, exactly as a person would (page mode), reading the
 * emailed code from the development mailbox in the data directory.
 */
async function demoPlayer(client) {
  const { signUpPlayer } = await import("@slotgate/server/testing");
  const player = { client_id: client.client_id, redirect_uri: `${WEB}/slotgate-callback.html`, state: "seed", email: PLAYER.email, password: PLAYER.password };
  try {
    const res = await signUpPlayer(SERVICE, DATA_DIR, player);
    return res.status === 302 || res.status === 303 ? null : `sign-up answered HTTP ${res.status}`;
  } catch (err) {
    // An account with this email exists already (an earlier run): nothing to create.
    return /already exists/.test(String(err?.message)) ? null : `sign-up failed: ${err?.message ?? err}`;
  }
}

const serverPkg = dirname(require.resolve("@slotgate/server/package.json"));
const webPkg = dirname(require.resolve("@slotgate/example-web-app/package.json"));
const serverBin = join(serverPkg, JSON.parse(readFileSync(join(serverPkg, "package.json"), "utf8")).bin["slotgate-server"]);
const webMain = join(webPkg, "dist/main.js");
const marketPkg = dirname(require.resolve("@slotgate/example-marketplace/package.json"));
const marketMain = join(marketPkg, "dist/main.js");
for (const f of [serverBin, webMain, marketMain]) {
  if (!existsSync(f))
    await fail(
      `${f} is missing: build first (npx turbo run build --filter=@slotgate/server... --filter=@slotgate/example-web-app... --filter=@slotgate/example-marketplace...)`,
      2,
    );
}

/**
 * "Sign in with the local identity provider": a real OpenID provider (node-oidc-provider) on 127.0.0.1 whose
 * login page takes any name; it vouches for `{name}@local-idp.slotgate.dev`. Its port is fixed so that a
 * restart keeps the same issuer (and so the same linked accounts).
 */
async function localIdentityProvider() {
  if (process.env.IDENTITY_PROVIDERS) return { env: {}, note: null, url: null };
  try {
    const { startLocalIdentityProvider } = await import("@slotgate/server/testing");
    const idp = await startLocalIdentityProvider({ slotgateUrl: process.env.PUBLIC_URL ?? SERVICE, port: IDP_PORT, emailDomain: "local-idp.slotgate.dev" });
    return { env: { IDENTITY_PROVIDERS: JSON.stringify([idp.entry("local", "the local identity provider")]) }, note: null, url: idp.issuer };
  } catch (err) {
    return { env: {}, note: `local identity provider not started: ${err?.message ?? err}`, url: null };
  }
}
const idp = await localIdentityProvider();

process.stderr.write(`Starting the Slotgate service on ${SERVICE} (data in ${DATA_DIR}) …\n`);
const MARKET_SECRET = marketplaceSecret();
startChild("slotgate", serverBin, {
  PORT: String(PORT),
  HOST,
  SLOTGATE_DATA_DIR: DATA_DIR,
  PUBLIC_URL: process.env.PUBLIC_URL ?? SERVICE,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // The reference marketplace receives the signed login-status webhooks.
  MARKETPLACE_URL: process.env.MARKETPLACE_URL ?? `${MARKET}/webhooks/slotgate`,
  MARKETPLACE_SECRET: MARKET_SECRET,
  ...idp.env,
});
await waitForHealth(`${SERVICE}/healthz`, "the Slotgate service");

let client;
let marketClient;
let seeded;
let playerNote;
try {
  client = await webClient({
    name: "Slotgate demo web app",
    origin: WEB,
    file: `demo-web-client-${WEB_PORT}.json`,
    seededFile: "demo-client.json",
    blockchain: true,
  });
  marketClient = await webClient({ name: "Slotgate reference marketplace", origin: MARKET, file: `marketplace-client-${MARKET_PORT}.json`, blockchain: true });
  seeded = await provider(client);
  playerNote = await demoPlayer(client);
} catch (err) {
  await fail(err instanceof Error ? err.message : String(err));
}

startChild("demo", webMain, {
  PORT: String(WEB_PORT),
  HOST,
  PUBLIC_URL: WEB,
  SLOTGATE_URL: SERVICE,
  SLOTGATE_CLIENT_ID: client.client_id,
  SLOTGATE_CLIENT_SECRET: client.client_secret,
  DEMO_CUID: seeded.cuid,
  MARKETPLACE_PUBLIC_URL: MARKET,
  ...(seeded.spendKey ? { SLOTGATE_AES_KEY: seeded.spendKey.key, SLOTGATE_AES_IV: seeded.spendKey.iv } : {}),
});
await waitForHealth(`${WEB}/healthz`, "the demo web app");

startChild("market", marketMain, {
  PORT: String(MARKET_PORT),
  HOST,
  PUBLIC_URL: MARKET,
  SLOTGATE_URL: SERVICE,
  SLOTGATE_CLIENT_ID: marketClient.client_id,
  SLOTGATE_CLIENT_SECRET: marketClient.client_secret,
  MARKETPLACE_SECRET: MARKET_SECRET,
  MARKETPLACE_DATA_DIR: join(DATA_DIR, "marketplace"),
  GAME_CLIENT_ID: client.client_id,
  GAME_CUID: seeded.cuid,
});
await waitForHealth(`${MARKET}/healthz`, "the marketplace");

const lines = [
  "",
  "  Slotgate is running.",
  "",
  `  Demo web app      ${WEB}/`,
  `  Marketplace       ${MARKET}/   (list a slot after logging out of the demo; another player buys it)`,
  `  Slotgate service  ${SERVICE}   (developer center: ${SERVICE}/developer)`,
  "",
  `  Demo player       ${PLAYER.email} / ${PLAYER.password}${playerNote ? `   (${playerNote})` : ""}  — or sign up in the popup`,
  "                    (sign-up codes arrive in the development mailbox: developer center, or the data directory's mailbox/)",
  ...(idp.url ? [`  Local identity provider  ${idp.url}   ("Continue with the local identity provider": any name signs in)`] : []),
  ...(idp.note ? [`  Note: ${idp.note}`] : []),
  '  Passkeys          tick "Add a passkey" when you sign in, then "Sign in with a passkey"',
  `  Demo developer    ${DEV.email} / ${DEV.password}`,
  `  Demo client_id    ${client.client_id}   (secret and AES key in ${DATA_DIR}, mode 0600)`,
  `  Demo cuid         ${seeded.cuid}`,
  ...(chainInfo["Development chain"]
    ? [
        "",
        `  Chain (JSON-RPC)  ${chainInfo["Development chain"]}   (state in ${join(DATA_DIR, "chain")})`,
        ...chainInfo["Contracts"].split(", ").map((entry, i) => `  ${i === 0 ? "Contracts        " : "                 "} ${entry}`),
        "  Read it with your own tools: see docs/guides/development-chain.md (viem, ethers, cast).",
      ]
    : []),
  ...seeded.notes.map((n) => `  Note: ${n}`),
  "",
  "  Press Ctrl-C to stop.",
  "",
];
process.stdout.write(`${lines.join("\n")}\n`);
