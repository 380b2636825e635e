/**
 * The add-on as Godot's editor and the Asset Library read it (no Godot needed): plugin.cfg names an existing
 * script and the add-on's version, and every script the add-on preloads is there.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const addon = join(import.meta.dirname, "..", "addons", "slotgate_login");

it("plugin.cfg names the plugin script and the add-on's version", () => {
  const cfg = Object.fromEntries([...readFileSync(join(addon, "plugin.cfg"), "utf8").matchAll(/^(\w+)="([^"]*)"$/gm)].map((m) => [m[1], m[2]]));
  expect(cfg).toMatchObject({ name: "Slotgate Login", version: expect.stringMatching(/^\d+\.\d+\.\d+$/), script: "plugin.gd" });
  expect(existsSync(join(addon, cfg["script"]!))).toBe(true);
});

it("every preload() of the add-on names a file of the add-on", () => {
  const scripts = readdirSync(addon).filter((f) => f.endsWith(".gd"));
  const preloaded = scripts.flatMap((f) => [...readFileSync(join(addon, f), "utf8").matchAll(/preload\("([^"]+)"\)/g)].map((m) => m[1]!));
  expect(preloaded.length).toBeGreaterThan(0);
  for (const file of preloaded) expect(scripts, file).toContain(file);
});
