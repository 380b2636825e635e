import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { lockFile, processAlive } from "@slotgate/storage";
import { ChainServiceError } from "../errors.js";

/** Options of {@link startAnvil}. */
export interface AnvilOptions {
  /**
   * Directory for the chain's state (`anvil-state.json`, dumped every `stateIntervalSeconds` and on
   * exit, loaded at start) and the process id file. Without it the chain lives in memory only.
   */
  stateDir?: string;
  /** Port on 127.0.0.1; 0 lets the OS pick one. @default 8545 */
  port?: number;
  /** Mine a block every N seconds instead of one per transaction (an L2-like chain). @default undefined (automine) */
  blockTimeSeconds?: number;
  /** How often the state is written to `stateDir`, seconds. @default 1 */
  stateIntervalSeconds?: number;
  /** The `anvil` executable. @default the `@foundry-rs/anvil-<platform>` package's binary, else `anvil` on PATH */
  binary?: string;
  /** How long to wait for the node to answer, ms. @default 30000 */
  startTimeoutMs?: number;
}

/** A running Anvil node. */
export interface AnvilProcess {
  /** `http://127.0.0.1:<port>`. */
  rpcUrl: string;
  /** The child process id. */
  pid: number;
  /**
   * Why the state file was not loaded as found, or null: a file cut short (the node was killed while
   * writing it) is set aside and the copy kept at the previous start is loaded instead; the chain
   * service then rebuilds what that copy lacks from its database (docs/decisions/chain-rebuild.md).
   */
  restoredState: string | null;
  /** Stops the node (its state is written on the way out); resolves once it exited. */
  stop(): Promise<void>;
}

/** The chain id of the development chain. */
export const DEVELOPMENT_CHAIN_ID = 31337n;

/**
 * The npm package that carries Anvil for each development platform (`<process.platform>-<process.arch>`).
 * All five are optional dependencies of this package, so npm installs the one that fits the machine
 * (each declares its `os` and `cpu`); CI resolves the lockfile for every entry
 * (`scripts/check-anvil-platforms.mjs`).
 *
 * @example
 * ```ts
 * ANVIL_PLATFORM_PACKAGES["darwin-arm64"]; // "@foundry-rs/anvil-darwin-arm64"
 * ```
 */
export const ANVIL_PLATFORM_PACKAGES: Readonly<Record<AnvilPlatform, string>> = Object.freeze({
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
});

/** A development platform Anvil is installed from npm for: `<process.platform>-<process.arch>`. */
export type AnvilPlatform = "linux-x64" | "linux-arm64" | "darwin-x64" | "darwin-arm64" | "win32-x64";

/** Where {@link anvilBinary} looks. */
export interface AnvilBinaryOptions {
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** @default process.arch */
  arch?: string;
  /** Module files (paths or `file:` URLs) from which the platform package is resolved, in order. @default this module, then the working directory */
  from?: readonly string[];
}

/**
 * The `anvil` executable: the binary of the npm package for this platform ({@link ANVIL_PLATFORM_PACKAGES};
 * `bin/anvil.exe` on Windows, `bin/anvil` elsewhere), else `anvil` on PATH (Foundry installed).
 *
 * @example
 * ```ts
 * const binary = anvilBinary(); // ".../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"
 * ```
 */
export function anvilBinary(options: AnvilBinaryOptions = {}): string {
  const platform = options.platform ?? process.platform;
  const name = (ANVIL_PLATFORM_PACKAGES as Record<string, string>)[`${platform}-${options.arch ?? process.arch}`];
  if (name !== undefined) {
    for (const base of options.from ?? [import.meta.url, join(process.cwd(), "noop.js")]) {
      try {
        const root = dirname(createRequire(base).resolve(`${name}/package.json`));
        const binary = join(root, "bin", platform === "win32" ? "anvil.exe" : "anvil");
        if (existsSync(binary)) return binary;
      } catch {
        // not installed next to this package or the application: try the next place
      }
    }
  }
  return "anvil";
}

/**
 * @internal The command line of a running process as one string, or null when it cannot be read:
 * `/proc/<pid>/cmdline` on Linux, `ps` on macOS and the BSDs, PowerShell's `Win32_Process` on Windows.
 */
export function processCommandLine(pid: number, platform: NodeJS.Platform = process.platform): string | null {
  try {
    if (platform === "linux") return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim() || null;
    const line =
      platform === "win32"
        ? execFileSync(
            "powershell.exe",
            ["-NoProfile", "-NonInteractive", "-Command", `(Get-CimInstance Win32_Process -Filter "ProcessId=${pid}").CommandLine`],
            { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000, windowsHide: true },
          )
        : execFileSync("ps", ["-ww", "-o", "args=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 });
    return line.trim() || null;
  } catch {
    return null;
  }
}

/**
 * @internal True when `pid` is an anvil started on `stateFile`: its command line names the anvil
 * executable and the state file. A command line that cannot be read is never taken for ours.
 */
export function isOurAnvil(pid: number, stateFile: string, platform: NodeJS.Platform = process.platform): boolean {
  const line = processCommandLine(pid, platform);
  return line !== null && /anvil(\.exe)?"?\s/i.test(`${line} `) && line.includes(stateFile);
}

/**
 * Stops a node left running by a previous process on the same state directory (that process was
 * killed and could not stop its child): it would hold the port and keep writing the state file.
 */
async function stopOrphan(pidFile: string, stateFile: string): Promise<void> {
  const pid = readPid(pidFile);
  // A pid file can outlive its process and the pid be reused: only a node on this very state file is stopped.
  if (pid !== undefined && pid !== process.pid && processAlive(pid) && isOurAnvil(pid, stateFile)) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
    const deadline = Date.now() + 10_000;
    while (processAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
  rmSync(pidFile, { force: true });
}

/** Whether `file` holds complete JSON (a state file the node was killed in the middle of writing does not). */
function completeJson(file: string): boolean {
  try {
    JSON.parse(readFileSync(file, "utf8"));
    return true;
  } catch {
    return false;
  }
}

/**
 * @internal Makes sure the node can load its state file. Anvil rewrites the whole file in place every
 * interval, so a kill in the middle of a write leaves it cut short, and the node would refuse to start.
 * A complete file is copied to `anvil-state.good.json` (a temporary file, then a rename); a file cut
 * short is set aside (`anvil-state.damaged-<time>.json`) and the good copy put in its place. Answers
 * what was done, or null when the file was complete (or absent).
 */
export function checkStateFile(stateFile: string): string | null {
  if (!existsSync(stateFile)) return null;
  const good = stateFile.replace(/\.json$/, ".good.json");
  if (completeJson(stateFile)) {
    copyFileSync(stateFile, `${good}.tmp`);
    renameSync(`${good}.tmp`, good);
    return null;
  }
  const damaged = stateFile.replace(/\.json$/, `.damaged-${Date.now()}.json`);
  renameSync(stateFile, damaged);
  if (existsSync(good) && completeJson(good)) {
    copyFileSync(good, stateFile);
    return `the chain's state file was cut short (its node was killed while writing it) and was set aside as ${damaged}; the node started from the copy kept at the previous start`;
  }
  return `the chain's state file was cut short (its node was killed while writing it) and was set aside as ${damaged}; no earlier copy was kept, so the node started empty`;
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(2000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts Anvil (Foundry's local EVM node) as a child process on 127.0.0.1 with the development chain
 * id 31337 and Hardhat's well-known development accounts. With `stateDir` its state is loaded at start
 * and written every `stateIntervalSeconds` and on exit, so `kill -9` loses at most the last interval
 * (which the chain service rebuilds from its database); a state file cut short by a kill during a
 * write is replaced by the copy kept at the previous start ({@link AnvilProcess.restoredState}). A node
 * that a killed process left running on the same `stateDir` is stopped first.
 *
 * @example
 * ```ts
 * const anvil = await startAnvil({ stateDir: ".slotgate-data/chain", port: 8545 });
 * console.log(anvil.rpcUrl); // http://127.0.0.1:8545
 * await anvil.stop();
 * ```
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilProcess> {
  const args = ["--host", "127.0.0.1", "--port", String(options.port ?? 8545), "--chain-id", String(DEVELOPMENT_CHAIN_ID)];
  let pidFile: string | undefined;
  let restoredState: string | null = null;
  let unlock: () => void = () => undefined;
  if (options.stateDir !== undefined) {
    mkdirSync(options.stateDir, { recursive: true });
    // One process manages the chain of a state directory; a node whose manager was killed is stopped first.
    try {
      unlock = lockFile(join(options.stateDir, "chain.lock"), `the development chain in ${options.stateDir}`);
    } catch (cause) {
      throw new ChainServiceError("chain_unavailable", cause instanceof Error ? cause.message : "the development chain is in use", { cause });
    }
    pidFile = join(options.stateDir, "anvil.pid");
    const stateFile = join(options.stateDir, "anvil-state.json");
    await stopOrphan(pidFile, stateFile);
    restoredState = checkStateFile(stateFile);
    args.push("--state", stateFile, "--state-interval", String(options.stateIntervalSeconds ?? 1));
  }
  if (options.blockTimeSeconds !== undefined) args.push("--block-time", String(options.blockTimeSeconds));

  const binary = options.binary ?? anvilBinary();
  let child: ChildProcess;
  try {
    child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  } catch (cause) {
    unlock();
    throw new ChainServiceError("chain_unavailable", `could not start anvil (${binary}); install it or set its path`, { cause });
  }
  let output = "";
  const keep = (chunk: Buffer) => {
    // The banner lists the well-known development keys: kept in memory for an error message only.
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawnError = new Promise<never>((_, reject) =>
    child.once("error", (cause) =>
      reject(new ChainServiceError("chain_unavailable", `could not start anvil (${binary}); install it or set its path`, { cause })),
    ),
  );

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const forced = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(forced);
    }
    if (pidFile !== undefined && readPid(pidFile) === child.pid) rmSync(pidFile, { force: true });
    unlock();
  };

  const listening = (async () => {
    const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new ChainServiceError("chain_unavailable", `anvil exited (${child.exitCode ?? child.signalCode}) before it answered: ${lastLines(output)}`);
      }
      const port = /Listening on 127\.0\.0\.1:([0-9]+)/.exec(output)?.[1];
      if (port !== undefined && (await answers(`http://127.0.0.1:${port}`))) return `http://127.0.0.1:${port}`;
      if (Date.now() > deadline) throw new ChainServiceError("chain_unavailable", `anvil did not answer within the start timeout: ${lastLines(output)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  let rpcUrl: string;
  try {
    rpcUrl = await Promise.race([listening, spawnError]);
  } catch (error) {
    await stop();
    throw error;
  }
  if (pidFile !== undefined && child.pid !== undefined) writeFileSync(pidFile, String(child.pid));
  // The node must not outlive this process when it exits normally.
  const onExit = () => child.kill("SIGTERM");
  process.once("exit", onExit);
  return {
    rpcUrl,
    pid: child.pid as number,
    restoredState,
    async stop() {
      process.removeListener("exit", onExit);
      await stop();
    },
  };
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function lastLines(output: string): string {
  return output
    .split("\n")
    .filter((line) => !/^\s*\(\d+\) 0x[0-9a-fA-F]{64}/.test(line))
    .slice(-5)
    .join(" ")
    .trim();
}
