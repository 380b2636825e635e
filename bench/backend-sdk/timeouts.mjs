// 10,000 concurrent getSlotInfo calls that all time out: heap before, while pending, and after.
// Run (from /work/main, after building the packages):
//   node --expose-gc bench/backend-sdk/timeouts.mjs                 # authorize answered by the simulated service (MSW)
//   FETCH=inject node --expose-gc bench/backend-sdk/timeouts.mjs    # authorize answered by an injected fetch (SDK alone)
import { http, HttpResponse } from "msw";
import { backendFor, mb, simulatedService, startCallbackServer } from "./common.mjs";

if (typeof global.gc !== "function") throw new Error("run with node --expose-gc");
const N = Number(process.env.N ?? 10_000);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 15_000);
const inject = process.env.FETCH === "inject";

let backend;
const cb = await startCallbackServer((req, res) => backend.handleCallback(req, res));
const { mock, msw } = await simulatedService(cb.url);
// The service accepts every authorize call and never calls back.
msw.use(http.get(`${mock.baseUrl}/v1/oauth-meta/authorize`, () => HttpResponse.json({ success: true, message: "accepted" })));
const accepted = async () => new Response('{"success":true,"message":"accepted"}', { status: 200, headers: { "content-type": "application/json" } });
backend = backendFor(mock, inject ? { fetch: accepted } : {});
const jwt = await mock.issueUserJwt(mock.fixtures.endUser.user_id, mock.fixtures.backendClient.client_id);

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
async function settle() {
  for (let i = 0; i < 3; i++) {
    global.gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts n calls; resolves to the outcome counts once all settled (errors are not kept). */
function run(n, timeout) {
  const outcomes = {};
  let left = n;
  let done;
  const finished = new Promise((r) => {
    done = r;
  });
  const count = (code) => {
    outcomes[code] = (outcomes[code] ?? 0) + 1;
    if (--left === 0) done(outcomes);
  };
  for (let i = 0; i < n; i++)
    backend.getSlotInfo(jwt, { timeout }).then(
      () => count("resolved"),
      (e) => count(e.code),
    );
  return finished;
}

// Warm-up: the same code paths at a small scale, so that JIT and module state are not counted.
await run(500, 50);
await settle();
const before = process.memoryUsage().heapUsed;
const timersBefore = timers();

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const rounds = [];
for (let round = 1; round <= ROUNDS; round++) {
  const t0 = performance.now();
  const finished = run(N, TIMEOUT_MS);
  const startMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 500)); // let every authorize answer arrive
  await settle();
  const during = process.memoryUsage().heapUsed;
  const pendingDuring = backend.pendingCount;
  const timersDuring = timers();
  const outcomes = await finished;
  const allSettledMs = performance.now() - t0;
  await settle();
  const after = process.memoryUsage().heapUsed;
  rounds.push({
    round,
    outcomes,
    startMs: Math.round(startMs),
    allSettledMs: Math.round(allSettledMs),
    pendingWhile: pendingDuring,
    timersWhile: timersDuring,
    pendingAfter: backend.pendingCount,
    timersAfter: timers(),
    heapWhilePendingMB: mb(during),
    heapAfterMB: mb(after),
    bytesPerPendingCall: Math.round((during - before) / N),
  });
}
const last = process.memoryUsage().heapUsed;
const firstAfter = Number(rounds[0].heapAfterMB) * 1024 * 1024;
console.log(
  JSON.stringify(
    {
      mode: inject ? "injected fetch" : "simulated service (MSW)",
      calls: N,
      timeoutMs: TIMEOUT_MS,
      heapBeforeMB: mb(before),
      timersBefore,
      rounds,
      retainedAfterFirstRoundKB: ((firstAfter - before) / 1024).toFixed(1),
      growthOverLaterRoundsBytesPerCall: ROUNDS > 1 ? ((last - firstAfter) / (N * (ROUNDS - 1))).toFixed(2) : null,
    },
    null,
    1,
  ),
);

await backend.shutdown();
msw.close();
await cb.close();
