/**
 * The add-on as Godot's editor and the Asset Library read it (no Godot needed): plugin.cfg names an existing
 * script and the add-on's version, and every script the add-on preloads is there; its error codes are written in one
 * place (slotgate_error_codes.gd, whose list godot-error-codes.test.ts pins to the CLI's under Godot).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { cliErrorCodes } from "../../test-support/cli-error-codes.js";

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

it("every script writes its error codes through slotgate_error_codes.gd, and names only constants it has", () => {
  const table = "slotgate_error_codes.gd";
  const constants = [...readFileSync(join(addon, table), "utf8").matchAll(/^const ([A-Z_]+) = /gm)].map((m) => m[1]!);
  const literal = new RegExp(`"(${cliErrorCodes().join("|")})"`, "g");
  const scripts = readdirSync(addon).filter((f) => f.endsWith(".gd") && f !== table);
  let uses = 0;
  for (const file of scripts) {
    const source = readFileSync(join(addon, file), "utf8");
    for (const [, name] of source.matchAll(/\bCodes\.([A-Za-z_]+)/g)) {
      uses += 1;
      expect(constants, `${file}: Codes.${name}`).toContain(name);
    }
    if (/\bCodes\./.test(source)) expect(source, file).toContain('const Codes = preload("slotgate_error_codes.gd")');
    // The one literal left is the server's OAuth error access_denied (RFC 6749 4.1.2.1, RFC 8628 3.5), compared.
    const literals = [...source.matchAll(literal)].filter((m) => !source.slice(0, m.index).endsWith("== "));
    expect(
      literals.map((m) => m[0]),
      file,
    ).toEqual([]);
  }
  expect(uses).toBeGreaterThan(30);
});
