#!/usr/bin/env node
// Fails when an external/public function, public state variable, event or custom error declared in
// this package's Solidity sources (contracts/**) has no NatSpec comment. Reads the solc AST from
// Hardhat's build-info, so run it after `hardhat compile`. Inherited third-party members
// (OpenZeppelin, account-abstraction) are documented upstream and not checked here.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const buildInfoDir = join(root, "artifacts", "build-info");

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

for (const file of readdirSync(buildInfoDir)) {
  const buildInfo = JSON.parse(readFileSync(join(buildInfoDir, file), "utf8"));
  for (const [source, { ast }] of Object.entries(buildInfo.output.sources)) {
    if (source.startsWith("contracts/")) visit(ast, source, "");
  }
}

if (checked === 0) {
  console.error("no Slotgate sources found in artifacts/build-info: run `hardhat compile` first");
  process.exit(1);
}
if (missing.length > 0) {
  console.error(`NatSpec missing on ${missing.length} of ${checked} declarations:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
console.log(`NatSpec present on all ${checked} external functions, public variables, events and errors in contracts/`);
