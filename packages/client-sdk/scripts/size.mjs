#!/usr/bin/env node
// Size budget of the browser entry points: bundle what a user imports with esbuild (minify, browser, ESM),
// gzip -9, and fail above the budget. The same method measures the peers in docs/benchmarks.md.
//   node scripts/size.mjs            check (CI: `npm run budget -w @slotgate/client-sdk`)
//   node scripts/size.mjs --json     print the figures as JSON
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

// 4.5 KB since the redirect mode (PKCE), the login-state events and silent renewal joined the popup in the Slotgate
// class (issue 32):
// the popup-only class measured 2763 B; docs/decisions/client-sdk.md, "Size budget".
const BUDGET_BYTES = 4.5 * 1024; // 4.5 KB min+gzip
// The wallet window entry (`@slotgate/client-sdk/wallet`, issue 31) has its own, smaller budget: it shares only the
// popup machinery, the options check and SlotgateError with the login; docs/decisions/client-sdk.md, "Wallet window".
const WALLET_BUDGET_BYTES = 3 * 1024; // 3 KB min+gzip

async function minGzip(stdin) {
  const result = await build({
    stdin: { contents: stdin, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
  });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const entries = [
  { name: "full entry (import * from dist/index.js)", code: 'export * from "./dist/index.js";' },
  { name: "wallet entry (import * from dist/wallet.js)", code: 'export * from "./dist/wallet.js";', budget: WALLET_BUDGET_BYTES },
  { name: "wallet callback page ({ handleWalletCallback })", code: 'export { handleWalletCallback } from "./dist/wallet.js";', budget: WALLET_BUDGET_BYTES },
  { name: "popup login only ({ Slotgate })", code: 'export { Slotgate } from "./dist/index.js";' },
  { name: "redirect page only ({ handleLoginCallback })", code: 'export { handleLoginCallback } from "./dist/index.js";' },
];
const rows = [];
for (const entry of entries) rows.push({ ...entry, ...(await minGzip(entry.code)) });
const iife = readFileSync("dist/slotgate.iife.js");
rows.push({ name: "script tag (dist/slotgate.iife.js)", min: iife.length, gzip: gzipSync(iife, { level: 9 }).length });
// The wallet window's script tag: the wallet entry plus VERSION and the global, under the wallet entry's budget
// (measured 2987 B min+gzip when added, 53 B over the ESM wallet entry).
const walletIife = readFileSync("dist/slotgate-wallet.iife.js");
rows.push({
  name: "wallet script tag (dist/slotgate-wallet.iife.js)",
  min: walletIife.length,
  gzip: gzipSync(walletIife, { level: 9 }).length,
  budget: WALLET_BUDGET_BYTES,
});

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  for (const r of rows) {
    const budget = r.budget ?? BUDGET_BYTES;
    console.log(`${r.name.padEnd(50)} ${String(r.min).padStart(6)} B min  ${String(r.gzip).padStart(5)} B min+gzip  (budget ${budget} B)`);
  }
}
const over = rows.filter((r) => r.gzip > (r.budget ?? BUDGET_BYTES));
if (over.length > 0) {
  console.error(`Over budget (min+gzip): ${over.map((r) => `${r.name} ${r.gzip} B > ${r.budget ?? BUDGET_BYTES} B`).join(", ")}`);
  process.exit(1);
}
if (!process.argv.includes("--json"))
  console.log(`All within budget: login entries ${BUDGET_BYTES} B (4.5 KB), wallet entry ${WALLET_BUDGET_BYTES} B (3 KB) min+gzip.`);
