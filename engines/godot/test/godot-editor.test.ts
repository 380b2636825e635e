/**
 * The add-on as Godot's editor loads it: the editor (`godot3-server -e --quit`, or SLOTGATE_GODOT) opens a copy of
 * this project, enables the plugin named in project.godot's `[editor_plugins]` and runs it. It logs no add-on failure
 * (a path form the editor does not read is "Addon '…' failed to load. No directory found" on 3.2.3, and the plugin is
 * silently dropped), and the plugin's `_enter_tree` added the autoload `Slotgate` to the project.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const godot = process.env["SLOTGATE_GODOT"] ?? "godot3-server";
const work = mkdtempSync(join(tmpdir(), "slotgate-godot-editor-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it("the editor enables the add-on from project.godot: no add-on failure logged, and the plugin adds the autoload Slotgate", async () => {
  // A copy: the editor rewrites project.godot and writes .import/ when it opens a project.
  const project = join(work, "project");
  const source = join(import.meta.dirname, "..");
  cpSync(join(source, "project.godot"), join(project, "project.godot"));
  cpSync(join(source, "addons"), join(project, "addons"), { recursive: true });
  const env = { ...process.env, HOME: join(work, "home"), LANG: "C.UTF-8" };
  const { stdout, stderr } = await promisify(execFile)(godot, ["--path", project, "-e", "--quit"], { env, timeout: 100_000, maxBuffer: 16 << 20 });
  const log = `${stdout}\n${stderr}`;
  const failures = log.split("\n").filter((line) => /addon|plugin/i.test(line) && /fail|unable|not found|no directory|error/i.test(line));
  expect(failures, log).toEqual([]);
  const saved = readFileSync(join(project, "project.godot"), "utf8");
  expect(saved, "the plugin's _enter_tree ran").toMatch(/^\[autoload\]\s+Slotgate="\*res:\/\/addons\/slotgate_login\/slotgate_login\.gd"$/m);
});
