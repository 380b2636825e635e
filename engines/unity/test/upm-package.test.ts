/**
 * The UPM package's layout as Unity's Package Manager reads it (no Mono needed): the manifest, the assembly
 * definitions, a correct .meta for every imported asset (Unity ignores an asset without one in a read-only
 * package), and the tarball `npm run pack:upm` makes.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { importedAssets, metaFor, PACKAGE_DIR } from "../scripts/upm-meta.mjs";

type Asset = { path: string; isFolder: boolean };
const json = (file: string) => JSON.parse(readFileSync(join(PACKAGE_DIR, file), "utf8")) as Record<string, unknown>;

it("the manifest names the package, its Unity version and an existing sample", () => {
  const manifest = json("package.json");
  expect(manifest).toMatchObject({
    name: "com.slotgate.login",
    version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    unity: "2021.3",
    displayName: "Slotgate Login",
  });
  const samples = manifest["samples"] as Array<{ path: string }>;
  expect(samples.length).toBeGreaterThan(0);
  for (const sample of samples) expect(existsSync(join(PACKAGE_DIR, sample.path)), sample.path).toBe(true);
});

it("the runtime assembly is Slotgate.Login on every platform; the sample references it", () => {
  expect(json("Runtime/Slotgate.Login.asmdef")).toMatchObject({ name: "Slotgate.Login", includePlatforms: [], excludePlatforms: [], autoReferenced: true });
  expect(json("Samples~/LoginButton/Slotgate.Login.Samples.asmdef")).toMatchObject({ references: ["Slotgate.Login"] });
});

it("every imported file and folder has its .meta with a unique GUID; the WebGL plugin is enabled for WebGL only", () => {
  const assets = importedAssets() as Asset[];
  expect(assets.map((a) => a.path.slice(PACKAGE_DIR.length + 1))).toEqual(
    expect.arrayContaining(["Runtime", "Runtime/SlotgateLogin.cs", "Runtime/Plugins/WebGL/SlotgateLogin.jslib", "package.json"]),
  );
  const guids = new Set<string>();
  for (const { path, isFolder } of assets) {
    const meta = readFileSync(`${path}.meta`, "utf8");
    expect(meta, path).toBe(metaFor(path, isFolder));
    guids.add(/guid: ([0-9a-f]{32})/.exec(meta)![1]!);
  }
  expect(guids.size).toBe(assets.length);
  const plugin = readFileSync(join(PACKAGE_DIR, "Runtime/Plugins/WebGL/SlotgateLogin.jslib.meta"), "utf8");
  expect(plugin).toMatch(/WebGL: WebGL\n {4}second:\n {6}enabled: 1/);
  expect(plugin).toMatch(/Any: \n {4}second:\n {6}enabled: 0/);
});

it("packs into a small tarball with the runtime, its .meta files, the sample and the docs", () => {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PACKAGE_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  ) as Array<{
    size: number;
    files: Array<{ path: string }>;
  }>;
  const files = packed!.files.map((f) => f.path);
  expect(files).toEqual(
    expect.arrayContaining([
      "package.json",
      "package.json.meta",
      "Runtime/SlotgateLogin.cs",
      "Runtime/SlotgateLogin.cs.meta",
      "Samples~/LoginButton/SlotgateLoginButton.cs",
      "Documentation~/com.slotgate.login.md",
      "LICENSE.md",
    ]),
  );
  expect(files.filter((f) => f.endsWith(".cs") && !f.startsWith("Samples~")).every((f) => files.includes(`${f}.meta`))).toBe(true);
  // Measured 23.4 KiB (0.2.0); a budget, so an accidental binary or build output fails here.
  expect(packed!.size).toBeLessThan(64 * 1024);
});
