#!/usr/bin/env node
// Fails when an external/public function, public state variable, event or custom error declared in
// this package's Solidity sources (contracts/**) has no NatSpec comment. Reads the solc AST from
// Hardhat's build-info, so run it after `hardhat compile`. Inherited third-party members
// (OpenZeppelin, account-abstraction) are documented upstream and not checked here.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const missing = [];
const seen = new Set();
let checked = 0;

function visit(node, source, contract) {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) visit(child, source, contract);
    return;
  }
  let name = contract;
  if (node.nodeType === "ContractDefinition") name = node.name;
  const needsDoc =
    (node.nodeType === "FunctionDefinition" &&
      (node.visibility === "external" || node.visibility === "public") &&
      (node.kind === "function" || node.kind === "constructor")) ||
    (node.nodeType === "VariableDeclaration" && node.stateVariable && node.visibility === "public") ||
    node.nodeType === "EventDefinition" ||
    node.nodeType === "ErrorDefinition";
  if (needsDoc) {
    const key = `${source}:${node.src}`;
    if (!seen.has(key)) {
      seen.add(key);
      checked++;
      const text = node.documentation?.text ?? "";
      if (text.trim() === "") {
        const label = node.kind === "constructor" ? "constructor" : node.name;
        missing.push(`${source} ${name}.${label} (${node.nodeType})`);
      }
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== "documentation" && typeof value === "object") visit(value, source, name);
  }
}

// Each source is read from the build-info its current artifacts point to (an incremental compile
// leaves older build-infos holding stale copies of other sources).
function debugFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return debugFiles(path);
    return entry.name.endsWith(".dbg.json") ? [path] : [];
  });
}

const sourceToBuildInfo = new Map();
for (const file of debugFiles(join(root, "artifacts", "contracts"))) {
  const { buildInfo } = JSON.parse(readFileSync(file, "utf8"));
  const source = relative(join(root, "artifacts"), dirname(file));
  sourceToBuildInfo.set(source, join(dirname(file), buildInfo));
}
const buildInfos = new Map();
for (const [source, buildInfoPath] of sourceToBuildInfo) {
  if (!buildInfos.has(buildInfoPath)) buildInfos.set(buildInfoPath, JSON.parse(readFileSync(buildInfoPath, "utf8")));
  visit(buildInfos.get(buildInfoPath).output.sources[source].ast, source, "");
}

if (checked === 0) {
  console.error("no Slotgate sources found in artifacts/contracts: run `hardhat compile` first");
  process.exit(1);
}
if (missing.length > 0) {
  console.error(`NatSpec missing on ${missing.length} of ${checked} declarations:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
console.log(`NatSpec present on all ${checked} external functions, public variables, events and errors in contracts/`);
