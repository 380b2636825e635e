import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readSecret, type SecretInput } from "../../src/developer/cli/read-secret.js";

/** A stand-in terminal: records raw-mode switches; what is written to it is what the screen shows. */
function terminal(): { input: SecretInput & PassThrough; screen: () => string; rawModes: boolean[]; output: PassThrough } {
  const input = new PassThrough() as SecretInput & PassThrough;
  const rawModes: boolean[] = [];
  input.isTTY = true;
  input.setRawMode = (mode: boolean) => rawModes.push(mode);
  const output = new PassThrough();
  let shown = "";
  output.on("data", (c: Buffer) => {
    shown += c.toString("utf8");
  });
  return { input, output, rawModes, screen: () => shown };
}

describe("readSecret (dev-user create's password, never from argv)", () => {
  it("reads a piped password to the end and drops one trailing newline", async () => {
    for (const [piped, expected] of [
      ["pw-from-pipe-1\n", "pw-from-pipe-1"],
      ["pw-from-pipe-1\r\n", "pw-from-pipe-1"],
      ["pw with spaces  ", "pw with spaces  "],
      ["two\nlines\n", "two\nlines"],
    ] as const) {
      const input = new PassThrough();
      const read = readSecret("ignored: ", input);
      input.end(piped);
      expect(await read).toBe(expected);
    }
  });

  it("refuses more than 4096 piped bytes rather than cutting them", async () => {
    const input = new PassThrough();
    const read = readSecret("", input);
    input.end("x".repeat(5000));
    await expect(read).rejects.toThrow(/longer than 4096 bytes/);
  });

  it("on a terminal: prompts, turns echo off while typing (Backspace edits), restores it, and never shows the password", async () => {
    const tty = terminal();
    const read = readSecret("Password for a@b.test: ", tty.input, tty.output);
    tty.input.write("secret-typoX");
    tty.input.write("\u007f");
    tty.input.write("-1\r");
    expect(await read).toBe("secret-typo-1");
    expect(tty.rawModes).toEqual([true, false]);
    expect(tty.screen()).toBe("Password for a@b.test: \n");
  });

  it("on a terminal with a confirmation prompt: the same entry twice is accepted, two different ones are refused", async () => {
    const same = terminal();
    const ok = readSecret("Password: ", same.input, same.output, { confirmPrompt: "Repeat it: " });
    same.input.write("twice-typed-1\r");
    await new Promise((r) => setImmediate(r));
    same.input.write("twice-typed-1\r");
    expect(await ok).toBe("twice-typed-1");
    expect(same.screen()).toBe("Password: \nRepeat it: \n");
    const differ = terminal();
    const refused = readSecret("Password: ", differ.input, differ.output, { confirmPrompt: "Repeat it: " });
    differ.input.write("first-entry-1\r");
    await new Promise((r) => setImmediate(r));
    differ.input.write("second-entry-1\r");
    await expect(refused).rejects.toThrow("the two passwords typed differ");
    expect(differ.rawModes).toEqual([true, false, true, false]);
  });

  it("on a terminal: Ctrl-C cancels and restores the terminal", async () => {
    const tty = terminal();
    const read = readSecret("Password: ", tty.input, tty.output);
    tty.input.write("abc\u0003");
    await expect(read).rejects.toThrow("cancelled");
    expect(tty.rawModes).toEqual([true, false]);
  });
});
