import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isOurAnvil, processCommandLine } from "../src/chain/anvil.js";
import { ANVIL_PLATFORM_PACKAGES, type AnvilPlatform, anvilBinary, startAnvil } from "../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An application directory whose node_modules holds the given platform package with its binary. */
function applicationWith(name: string, binary: string): string {
  const app = mkdtempSync(join(tmpdir(), "slotgate-anvil-platform-"));
  dirs.push(app);
  const root = join(app, "node_modules", ...name.split("/"));
  mkdirSync(join(root, "bin"), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name, version: "1.7.1" }));
  writeFileSync(join(root, "bin", binary), "");
  return join(app, "main.js");
}

describe("the anvil binary of each development platform", () => {
  it("is anvil.exe of @foundry-rs/anvil-win32-amd64 on Windows", () => {
    const from = applicationWith("@foundry-rs/anvil-win32-amd64", "anvil.exe");
    const binary = anvilBinary({ platform: "win32", arch: "x64", from: [from] });
    expect(binary).toBe(join(from, "..", "node_modules", "@foundry-rs", "anvil-win32-amd64", "bin", "anvil.exe"));
  });

  it("is bin/anvil of the platform's package on macOS and Linux", () => {
    for (const platform of ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64"] as const) {
      const name = ANVIL_PLATFORM_PACKAGES[platform];
      const from = applicationWith(name, "anvil");
      const [os, arch] = platform.split("-") as [NodeJS.Platform, string];
      expect(anvilBinary({ platform: os, arch, from: [from] })).toBe(join(from, "..", "node_modules", ...name.split("/"), "bin", "anvil"));
    }
  });

  it("falls back to anvil on PATH when the platform's package is missing or the platform has none", () => {
    const from = applicationWith("@foundry-rs/anvil-linux-amd64", "anvil");
    expect(anvilBinary({ platform: "darwin", arch: "arm64", from: [from] })).toBe("anvil");
    expect(anvilBinary({ platform: "win32", arch: "ia32", from: [from] })).toBe("anvil");
    expect(anvilBinary({ platform: "freebsd", arch: "x64", from: [from] })).toBe("anvil");
  });

  it("maps every platform to the package this package depends on, and each package names its os and cpu", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { optionalDependencies: Record<string, string> };
    expect(Object.values(ANVIL_PLATFORM_PACKAGES).sort()).toEqual(Object.keys(manifest.optionalDependencies).sort());
    const lock = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "package-lock.json"), "utf8")) as {
      packages: Record<string, { os?: string[]; cpu?: string[] }>;
    };
    for (const [platform, name] of Object.entries(ANVIL_PLATFORM_PACKAGES) as Array<[AnvilPlatform, string]>) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      const [os, arch] = platform.split("-");
      expect([entry?.os, entry?.cpu]).toEqual([[os], [arch]]);
    }
  });
});

describe("an orphaned node is recognised by its command line", () => {
  it("reads a live node's command line from /proc on Linux and from ps elsewhere, and matches only its own state file", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "slotgate-anvil-orphan-"));
    dirs.push(stateDir);
    const anvil = await startAnvil({ port: 0, stateDir });
    try {
      const stateFile = join(stateDir, "anvil-state.json");
      for (const platform of ["linux", "darwin"] as const) {
        expect(processCommandLine(anvil.pid, platform)).toContain(stateFile);
        expect(isOurAnvil(anvil.pid, stateFile, platform)).toBe(true);
        expect(isOurAnvil(anvil.pid, join(stateDir, "other-state.json"), platform)).toBe(false);
      }
      // This test process is not an anvil, whatever its arguments hold.
      expect(isOurAnvil(process.pid, stateFile)).toBe(false);
    } finally {
      await anvil.stop();
    }
  });

  it("is never taken for ours when the command line cannot be read", () => {
    expect(processCommandLine(2 ** 22 + 12_345, "linux")).toBeNull();
    expect(processCommandLine(2 ** 22 + 12_345, "darwin")).toBeNull();
    expect(isOurAnvil(2 ** 22 + 12_345, "/tmp/anvil-state.json", "darwin")).toBe(false);
  });
});
