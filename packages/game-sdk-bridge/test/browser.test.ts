import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemOpenerCommand } from "../src/browser.js";
import { createCommandOpener, GameSdkBridgeError, openSystemBrowser } from "../src/index.js";

const TRICKY_URL = "https://auth.example.test/oauth/authorize?client_id=a&redirect_uri=x;echo%20pwned&state=$(id)`id`";

describe("systemOpenerCommand", () => {
  it.each([
    ["linux", "xdg-open", []],
    ["freebsd", "xdg-open", []],
    ["darwin", "open", []],
    ["win32", "rundll32", ["url.dll,FileProtocolHandler"]],
  ] as const)("on %s runs %s with the URL as one argument", (platform, command, prefix) => {
    expect(systemOpenerCommand(platform, TRICKY_URL)).toEqual([command, [...prefix, TRICKY_URL]]);
  });
});

describe("openers spawn without a shell", () => {
  let dir = "";
  let argsFile = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "slotgate-opener-"));
    argsFile = join(dir, "args.json");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  /** A stand-in opener that writes the arguments it received as JSON. */
  async function recorder(name: string): Promise<string> {
    const script = join(dir, name);
    await writeFile(script, `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(process.argv.slice(2)));\n`);
    await chmod(script, 0o755);
    return script;
  }

  async function recordedArgs(): Promise<string[]> {
    await vi.waitUntil(
      async () =>
        readFile(argsFile, "utf8").then(
          () => true,
          () => false,
        ),
      { timeout: 4000 },
    );
    return JSON.parse(await readFile(argsFile, "utf8")) as string[];
  }

  it("openSystemBrowser hands the URL, metacharacters and all, to the platform opener as a single argument", async () => {
    const [command] = systemOpenerCommand(process.platform, TRICKY_URL);
    await recorder(command);
    vi.stubEnv("PATH", dir);
    await openSystemBrowser(TRICKY_URL);
    expect(await recordedArgs()).toEqual(systemOpenerCommand(process.platform, TRICKY_URL)[1]);
  });

  it("createCommandOpener runs the command's words plus the URL as the last argument", async () => {
    const script = await recorder("my-browser");
    await createCommandOpener(`${script}  --new-window   --private`)(TRICKY_URL);
    expect(await recordedArgs()).toEqual(["--new-window", "--private", TRICKY_URL]);
  });

  it("rejects with BROWSER_OPEN_FAILED when the opener does not exist", async () => {
    const opening = createCommandOpener(join(dir, "no-such-browser"))("https://auth.example.test/");
    await expect(opening).rejects.toBeInstanceOf(GameSdkBridgeError);
    await expect(opening).rejects.toMatchObject({ code: "browser_open_failed", message: expect.stringContaining("ENOENT") });
  });

  it.each([["file:///etc/passwd"], ["javascript:alert(1)"], ["not a url"]])("refuses to open %s", async (url) => {
    await expect(openSystemBrowser(url)).rejects.toMatchObject({ code: "browser_open_failed" });
    await expect(createCommandOpener("true")(url)).rejects.toMatchObject({ code: "browser_open_failed" });
  });

  it("refuses an empty command", () => {
    expect(() => createCommandOpener("   ")).toThrow(GameSdkBridgeError);
  });
});
