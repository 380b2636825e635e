// Per-call overhead of a successful getSlotInfo against the simulated service.
// A: the SDK (getSlotInfo + handleCallback). B (baseline): the same three round trips by hand —
// GET authorize, wait for the callback in a bare node:http handler, POST get_token — with no
// validation, no timers, no abort wiring. Both talk to the same simulated service (MSW, in
// process; it signs an ES256 access token per call) and receive the callback on a real
// 127.0.0.1 route. Modes are interleaved in rounds; medians of per-round means are reported.
// Run (from /work/main, after building the packages): node bench/backend-sdk/overhead.mjs
import { backendFor, median, simulatedService, startCallbackServer } from "./common.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 200);

let route = () => {};
const cb = await startCallbackServer((req, res) => route(req, res));
const { mock, msw } = await simulatedService(cb.url);
const c = mock.fixtures.backendClient;
const jwt = await mock.issueUserJwt(mock.fixtures.endUser.user_id, c.client_id);
const backend = backendFor(mock);

// --- B: by hand -------------------------------------------------------------------------
const waiting = new Map();
function bareRoute(req, res) {
  const q = new URL(req.url, "http://x").searchParams;
  res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}');
  const resolve = waiting.get(q.get("state"));
  if (resolve) {
    waiting.delete(q.get("state"));
    resolve(q.get("code"));
  }
}
let n = 0;
async function byHand() {
  const state = `bench-state-${++n}-${"x".repeat(20)}`;
  const code = new Promise((resolve) => waiting.set(state, resolve));
  const url = `${mock.baseUrl}/v1/oauth-meta/authorize?${new URLSearchParams({ client_id: c.client_id, redirect_uri: c.redirect_uri, state })}`;
  const a = await fetch(url, { headers: { authorization: `Bearer ${jwt}` } });
  await a.json();
  const res = await fetch(`${mock.baseUrl}/v1/oauth-meta/get_token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: c.client_id, client_secret: c.client_secret, code: await code, redirect_uri: c.redirect_uri }),
  });
  const body = await res.json();
  if (!body.access_token) throw new Error("baseline exchange failed");
  return body;
}

// --- A: the SDK -------------------------------------------------------------------------
const sdkRoute = (req, res) => backend.handleCallback(req, res);
const viaSdk = () => backend.getSlotInfo(jwt);

const modes = { sdk: [sdkRoute, viaSdk], baseline: [bareRoute, byHand] };
async function measure(name, calls) {
  const [r, fn] = modes[name];
  route = r;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await fn();
  return ((performance.now() - t0) * 1000) / calls; // µs per call
}

for (const name of Object.keys(modes)) await measure(name, WARMUP);
const samples = { sdk: [], baseline: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ["baseline", "sdk"] : ["sdk", "baseline"]) samples[name].push(await measure(name, CALLS));
}
const overheads = samples.sdk.map((s, i) => s - samples.baseline[i]);
const fmt = (xs) => ({ medianUs: Math.round(median(xs)), minUs: Math.round(Math.min(...xs)), maxUs: Math.round(Math.max(...xs)) });
console.log(
  JSON.stringify(
    {
      rounds: ROUNDS,
      callsPerRound: CALLS,
      sdk: fmt(samples.sdk),
      baseline: fmt(samples.baseline),
      overheadPerCall: fmt(overheads),
      ratioSdkToBaseline: (median(samples.sdk) / median(samples.baseline)).toFixed(3),
    },
    null,
    1,
  ),
);

await backend.shutdown();
msw.close();
await cb.close();
