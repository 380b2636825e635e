import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** The built `slotgate-server` binary as an operator runs it: the password arrives on a pipe, never in argv. */
const bin = join(import.meta.dirname, "../../dist/cli.js");
const dataDir = mkdtempSync(join(tmpdir(), "slotgate-cli-password-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function run(args: string[], stdin: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env["PATH"] ?? "", SLOTGATE_DATA_DIR: dataDir, LOG_LEVEL: "silent", CHAIN: "off", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("slotgate-server dev-user create (built binary)", () => {
  it("reads the password piped on stdin and creates the account", async () => {
    const res = await run(["dev-user", "create", "--email", "piped@example.test"], "piped-password-1\n");
    expect(res.stderr).not.toContain("piped-password-1");
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ success: true, email: "piped@example.test" });
  });

  it("refuses --password with exit code 2 and says how to pass the password instead", async () => {
    const res = await run(["dev-user", "create", "--email", "argv@example.test", "--password", "argv-password-1"], "");
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--password is refused");
    expect(res.stderr).toContain("SLOTGATE_DEV_USER_PASSWORD");
    expect(res.stdout).toBe("");
  });
});
