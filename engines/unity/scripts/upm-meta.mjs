#!/usr/bin/env node
/**
 * Unity `.meta` files of the UPM package com.slotgate.login. A package installed from git or a tarball is
 * read-only to Unity, which ignores any asset without a `.meta` file, so every file and folder ships one
 * (folders ending in `~`, such as Samples~ and Documentation~, are not imported and need none).
 * GUIDs are derived from the path, so a file keeps its GUID wherever the package is built.
 *
 *   node scripts/upm-meta.mjs          # writes the missing .meta files (an existing one is kept)
 *   node scripts/upm-meta.mjs --check  # lists what is missing or stale; exits 1 if anything is
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "com.slotgate.login");

const tail = "  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n";
const WEBGL_PLUGIN = [
  "PluginImporter:",
  "  externalObjects: {}",
  "  serializedVersion: 2",
  "  iconMap: {}",
  "  executionOrder: {}",
  "  defineConstraints: []",
  "  isPreloaded: 0",
  "  isOverridable: 0",
  "  isExplicitlyReferenced: 0",
  "  validateReferences: 1",
  "  platformData:",
  "  - first:\n      Any: \n    second:\n      enabled: 0\n      settings: {}",
  "  - first:\n      Editor: Editor\n    second:\n      enabled: 0\n      settings:\n        DefaultValueInitialized: true",
  "  - first:\n      WebGL: WebGL\n    second:\n      enabled: 1\n      settings: {}",
  "  userData: \n  assetBundleName: \n  assetBundleVariant: \n",
].join("\n");

/** The importer block Unity writes for this kind of asset. */
function importer(path, isFolder) {
  if (isFolder) return `folderAsset: yes\nDefaultImporter:\n${tail}`;
  if (path.endsWith("package.json") && dirname(path) === PACKAGE_DIR) return `PackageManifestImporter:\n${tail}`;
  switch (extname(path)) {
    case ".cs":
      return `MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n  executionOrder: 0\n  icon: {instanceID: 0}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n`;
    case ".asmdef":
      return `AssemblyDefinitionImporter:\n${tail}`;
    case ".jslib":
      return WEBGL_PLUGIN;
    default:
      return `TextScriptImporter:\n${tail}`;
  }
}

/** The asset paths of the package that Unity imports: everything but .meta files and `~` folders. */
export function importedAssets(dir = PACKAGE_DIR) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith(".meta") || name.endsWith("~") || name.startsWith(".")) continue;
    const path = join(dir, name);
    const isFolder = statSync(path).isDirectory();
    found.push({ path, isFolder });
    if (isFolder) found.push(...importedAssets(path));
  }
  return found;
}

/** The .meta text of an asset: its path-derived GUID and importer. */
export function metaFor(path, isFolder) {
  const guid = createHash("md5")
    .update(`com.slotgate.login/${relative(PACKAGE_DIR, path).split("\\").join("/")}`)
    .digest("hex");
  return `fileFormatVersion: 2\nguid: ${guid}\n${importer(path, isFolder)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const problems = [];
  const assets = importedAssets();
  for (const { path, isFolder } of assets) {
    const meta = `${path}.meta`;
    if (existsSync(meta)) {
      if (readFileSync(meta, "utf8") !== metaFor(path, isFolder)) problems.push(`stale ${relative(PACKAGE_DIR, meta)}`);
    } else if (check) problems.push(`missing ${relative(PACKAGE_DIR, meta)}`);
    else writeFileSync(meta, metaFor(path, isFolder));
  }
  // A .meta whose asset is gone would make Unity warn; remove it (or list it).
  const wanted = new Set(assets.map((a) => `${a.path}.meta`));
  const walk = (dir) =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name.endsWith("~")) return [];
      return statSync(path).isDirectory() ? walk(path) : name.endsWith(".meta") ? [path] : [];
    });
  for (const meta of walk(PACKAGE_DIR)) {
    if (wanted.has(meta)) continue;
    if (check) problems.push(`orphan ${relative(PACKAGE_DIR, meta)}`);
    else unlinkSync(meta);
  }
  for (const problem of problems) console.error(`upm-meta: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`upm-meta: ${assets.length} assets, every one with its .meta`);
}
