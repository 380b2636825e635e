import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lockDataDir } from "../../src/storage/data-dir-lock.js";

const dir = mkdtempSync(join(tmpdir(), "slotgate-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("data directory lock (one server per embedded database)", () => {
  it("refuses a directory locked by a running process and names it", () => {
    writeFileSync(join(dir, "server.lock"), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
  });

  it("takes over a lock left by a process that no longer runs, and releases it", () => {
    writeFileSync(join(dir, "server.lock"), "999999999");
    const release = lockDataDir(dir);
    expect(existsSync(join(dir, "server.lock"))).toBe(true);
    release();
    expect(existsSync(join(dir, "server.lock"))).toBe(false);
  });
});
