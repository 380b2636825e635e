// Child process: the real Slotgate server (built package) on PostgreSQL or PGlite, plus an IPC
// hook that mints authorization codes straight into its database (the sign-in page is scrypt-bound
// and is not what this benchmark measures).
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { settle } from "./settle.mjs";

// SLOTGATE_SERVER_DIST: another build of @slotgate/server (a copy of packages/server/dist kept
// inside packages/server so that its imports resolve), measured as the same-run baseline of a change.
const dist = process.env.SLOTGATE_SERVER_DIST;
const { loadConfig, startServer } = await import(dist ? pathToFileURL(join(dist, "index.js")).href : "@slotgate/server");
const { signUpPlayer } = await import(dist ? pathToFileURL(join(dist, "testing.js")).href : "@slotgate/server/testing");

const kind = process.argv[2]; // "postgres" | "pglite"
const schema = `sg_bench_${randomBytes(4).toString("hex")}`;
const env = {
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "error",
  RATE_LIMIT: "off",
  SLOTGATE_SEED_DEMO: "off",
  // Part-1 flows only: no chain service (its endpoints are not measured here).
  CHAIN: "off",
  SLOTGATE_DATA_DIR: mkdtempSync(join(tmpdir(), "slotgate-bench-")),
  ...(kind === "postgres" ? { DATABASE_URL: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test" } : {}),
};
const running = await startServer(loadConfig(env), kind === "postgres" ? { schema } : {});
const base = running.url;
const db = running.slotgate.services.db;

async function json(method, path, body, token) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}

// A developer, a client and one end user, through the public API.
const dev = await json("POST", "/v1/dev-user/signup", { email: `bench-${randomBytes(4).toString("hex")}@example.test`, password: "bench-password-1" });
const redirectUri = "https://bench.example/cb";
const client = await json(
  "POST",
  "/v1/dev-user/clients",
  {
    name: "bench",
    redirect_uris: [redirectUri],
    download_url: "https://bench.example/dl",
    web_url: "https://bench.example/",
    platform: "web",
    blockchain: false,
  },
  dev.token,
);
const player = {
  client_id: client.client_id,
  redirect_uri: redirectUri,
  state: "bench",
  email: `player-${randomBytes(4).toString("hex")}@example.test`,
  password: "player-password-1",
};
const approved = await signUpPlayer(base, env.SLOTGATE_DATA_DIR, player);
const firstCode = new URL(approved.headers.get("location")).searchParams.get("code");
const token = await (
  await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: firstCode,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  })
).json();

// 500 more end users with their own access tokens, so the status benchmark updates many
// (user, client) rows as real traffic does rather than one row over and over.
const tag = randomBytes(4).toString("hex");
const userRows = await db.query(
  "INSERT INTO end_users (email, password_hash, nickname) SELECT 'bench-' || g || '-' || $1 || '@example.test', 'unusable', 'bench' FROM generate_series(1, 500) AS g RETURNING id::text AS id",
  [tag],
);
const users = await Promise.all(
  userRows.map(async (u) => ({
    user_id: u.id,
    token: await running.slotgate.services.tokens.signAccessToken(u.id, client.client_id, `bench-${tag}-${u.id}`, new Date(Date.now() + 3_600_000)),
  })),
);

// PKCE S256 on every code (one verifier for all: the same work per request), as the oidc-code anchor.
const codeVerifier = randomBytes(32).toString("base64url");
const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
async function mint(n) {
  const codes = Array.from({ length: n }, () => randomBytes(32).toString("base64url"));
  const hashes = codes.map((c) => createHash("sha256").update(c).digest("base64url"));
  for (let i = 0; i < hashes.length; i += 10_000) {
    await db.query(
      `INSERT INTO authorization_codes (code_hash, kind, client_id, user_id, redirect_uri, code_challenge, expires_at)
       SELECT h, 'oauth', $1, $2, $3, $5, now() + interval '60 seconds' FROM unnest($4::text[]) AS h`,
      [client.client_id, token.user_id, redirectUri, hashes.slice(i, i + 10_000), codeChallenge],
    );
  }
  return codes;
}

process.on("message", async (msg) => {
  if (msg.type === "mint") process.send({ type: "minted", codes: await mint(msg.n) });
  if (msg.type === "stop") {
    if (kind === "postgres") await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await running.close();
    process.exit(0);
  }
});
settle();
process.send({
  type: "ready",
  url: base,
  client_id: client.client_id,
  client_secret: client.client_secret,
  redirect_uri: redirectUri,
  code_verifier: codeVerifier,
  user_id: token.user_id,
  access_token: token.access_token,
  users,
});
