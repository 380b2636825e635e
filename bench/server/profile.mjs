// Profiles one Slotgate target under the token-exchange load: starts slotgate-target.mjs with
// --cpu-prof, drives POST /oauth/token for --duration seconds, stops it and prints the functions with
// the most self time (and the share of the profile per package).
//
//   node bench/server/profile.mjs [--db postgres|pglite] [--duration 10] [--mode token|validate|bare] [--dir /tmp/prof]
//
// --mode bare profiles the baseline (bare-express.mjs) under the same load, for a side-by-side.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    db: { type: "string", default: "postgres" },
    duration: { type: "string", default: "10" },
    mode: { type: "string", default: "token" },
    dir: { type: "string", default: "/tmp/slotgate-profile" },
    connections: { type: "string", default: "50" },
  },
});
mkdirSync(values.dir, { recursive: true });
const target = values.mode === "bare" ? ["bare-express.mjs"] : ["slotgate-target.mjs", values.db];
const child = spawn(process.execPath, ["--expose-gc", "--cpu-prof", `--cpu-prof-dir=${values.dir}`, join(here, target[0]), ...target.slice(1)], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const info = await new Promise((resolve) => child.on("message", (m) => m.type === "ready" && resolve(m)));
const ask = (message, reply) =>
  new Promise((resolve) => {
    const on = (m) => {
      if (m.type === reply) {
        child.off("message", on);
        resolve(m);
      }
    };
    child.on("message", on);
    child.send(message);
  });
const seconds = Number(values.duration);
let requests;
if (values.mode === "token") {
  const { codes } = await ask({ type: "mint", n: 60_000 }, "minted");
  let i = 0;
  requests = [
    {
      method: "POST",
      path: "/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      setupRequest: (req) => ({
        ...req,
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: codes[i++] ?? "x",
          redirect_uri: info.redirect_uri,
          client_id: info.client_id,
          client_secret: info.client_secret,
          code_verifier: info.code_verifier,
        }).toString(),
      }),
    },
  ];
} else if (values.mode === "bare") requests = [{ method: "GET", path: "/bare" }];
else requests = [{ method: "GET", path: "/v1/oauth/validate", headers: { authorization: `Bearer ${info.access_token}` } }];
const result = await new Promise((resolve, reject) =>
  autocannon({ url: info.url, connections: Number(values.connections), duration: seconds, requests }, (e, r) => (e ? reject(e) : resolve(r))),
);
console.log(
  `${values.mode}${values.mode === "bare" ? "" : ` on ${values.db}`}: ${(result["2xx"] / seconds).toFixed(0)} req/s 2xx, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
);
child.send({ type: "stop" });
await new Promise((r) => child.once("exit", r));
const file = readdirSync(values.dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()
  .at(-1);
const profile = JSON.parse(readFileSync(join(values.dir, file), "utf8"));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const byFn = new Map();
const byPkg = new Map();
for (const node of profile.nodes) {
  const t = dt.get(node.id) ?? 0;
  if (!t) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/packages\//, "")}:${lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  const pkg = url.includes("node_modules/")
    ? url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, "$1")
    : url.includes("/packages/")
      ? `@slotgate/${url.replace(/^.*\/packages\/([^/]+).*$/, "$1")}`
      : url.startsWith("node:")
        ? "node:internal"
        : functionName.startsWith("(")
          ? functionName
          : "other";
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
}
const pct = (t) => `${((100 * t) / total).toFixed(1)}%`;
console.log(`\nself time by package (${file}):`);
for (const [k, t] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(t).padStart(6)}  ${k}`);
console.log("\ntop functions by self time:");
for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${pct(t).padStart(6)}  ${k}`);
