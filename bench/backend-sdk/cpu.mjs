// CPU cost of one successful getSlotInfo inside the SDK alone: the network is an injected fetch
// that answers at once, and the callback is handed to handleCallback directly (fake node:http
// response). Baseline: the same two fetch calls and Response parsing with no SDK around them.
// Run (from /work/main): node bench/backend-sdk/cpu.mjs
import { SignJWT, generateKeyPair } from "jose";
import { SlotgateBackend, silentLogger } from "@slotgate/backend-sdk";
import { median } from "./common.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 5000);
const { privateKey } = await generateKeyPair("ES256");
const jwt = await new SignJWT({ sub: "1001", client_id: "sg_bench" }).setProtectedHeader({ alg: "ES256" }).setExpirationTime("7d").sign(privateKey);
const slot = JSON.stringify({
  success: true,
  id: "1001",
  access_token: "at",
  token_type: "Bearer",
  expires_in: 3600,
  content_address: "",
  token_nickname: "p",
  tr_cnt: 0,
  code: "c",
});
const json = (body) => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
const fakeRes = { statusCode: 0, setHeader() {}, end() {} };

let backend;
const fetchFn = async (url) => {
  const u = String(url);
  if (u.includes("/authorize")) {
    const state = new URL(u).searchParams.get("state");
    queueMicrotask(() => backend.handleCallback({ url: `/cb?code=c&state=${state}&success=1` }, fakeRes));
    return json('{"success":true,"message":"accepted"}');
  }
  return json(slot);
};
backend = new SlotgateBackend({
  authServerUrl: "http://svc.test",
  clientId: "sg_bench",
  clientSecret: "s".repeat(43),
  redirectUri: "http://127.0.0.1:1/cb",
  fetch: fetchFn,
  logger: silentLogger,
});

async function bare() {
  const a = await fetchFn("http://svc.test/v1/oauth-meta/get_token"); // same Response work, no callback
  await a.text();
  const b = await fetchFn("http://svc.test/v1/oauth-meta/get_token");
  return JSON.parse(await b.text());
}
const modes = { sdk: () => backend.getSlotInfo(jwt), baseline: bare };
async function measure(name) {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await modes[name]();
  return ((performance.now() - t0) * 1000) / CALLS;
}
for (const m of Object.keys(modes)) await measure(m);
const s = { sdk: [], baseline: [] };
for (let r = 0; r < ROUNDS; r++) for (const m of r % 2 ? ["baseline", "sdk"] : ["sdk", "baseline"]) s[m].push(await measure(m));
const fmt = (xs) => ({ medianUs: +median(xs).toFixed(1), minUs: +Math.min(...xs).toFixed(1), maxUs: +Math.max(...xs).toFixed(1) });
const over = s.sdk.map((x, i) => x - s.baseline[i]);
console.log(JSON.stringify({ rounds: ROUNDS, callsPerRound: CALLS, sdk: fmt(s.sdk), baseline: fmt(s.baseline), sdkOverheadPerCall: fmt(over) }, null, 1));
await backend.shutdown();
