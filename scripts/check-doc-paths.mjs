#!/usr/bin/env node
// Every source path the docs name in backticks (`dir/file.ts`, with at least one folder) must be a file of
// this repository: the docs describe today's tree, so a moved or merged file fails the lint until the docs
// follow. A path is matched as a suffix of a tracked file on a folder boundary (`http/input.ts` matches
// `packages/server/src/platform/http/input.ts`). Paths under dist/, node_modules/ and generated output, and
// paths with a placeholder (`<name>`, `*`), are not checked.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).split("\n").filter(Boolean);
const tracked = git("ls-files");
const docs = tracked.filter((file) => file.endsWith(".md") && !file.startsWith(".changeset/") && !/(^|\/)CHANGELOG\.md$/.test(file));
const known = new Set();
for (const file of tracked) {
  const parts = file.split("/");
  for (let i = 0; i < parts.length; i++) known.add(parts.slice(i).join("/"));
}
const PATH = /`([A-Za-z0-9_.@-]+(?:\/[A-Za-z0-9_.@-]+)+\.(?:ts|tsx|mts|mjs|cjs|sol|cs|gd))`/g;
const missing = [];
for (const doc of docs) {
  const text = readFileSync(doc, "utf8");
  for (const match of text.matchAll(PATH)) {
    const path = match[1].replace(/^\.\//, "");
    if (/(^|\/)(dist|node_modules|generated)\//.test(path)) continue;
    if (!known.has(path)) missing.push(`${doc}: \`${path}\``);
  }
}
if (missing.length > 0) {
  console.error(`Docs name ${missing.length} source path(s) that are not in the tree (moved, merged or misspelt):`);
  for (const line of missing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`docs: every backticked source path in ${docs.length} Markdown files is a file of the repository`);
