import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  /** Stops the node (its state is written on the way out); resolves once it exited. */
  stop(): Promise<void>;
}

/** The chain id of the development chain. */
export const DEVELOPMENT_CHAIN_ID = 31337n;

const PLATFORM_PACKAGE: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
};

/**
 * The `anvil` executable: the binary of the npm package for this platform (`@foundry-rs/anvil-linux-amd64`
 * on Linux x64, an optional dependency of this package), else `anvil` on PATH (Foundry installed).
 *
 * @example
 * ```ts
 * const binary = anvilBinary(); // ".../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"
 * ```
 */
export function anvilBinary(): string {
  const name = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`];
  if (name !== undefined) {
    for (const base of [import.meta.url, join(process.cwd(), "noop.js")]) {
      try {
        const root = dirname(createRequire(base).resolve(`${name}/package.json`));
        const binary = join(root, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
        if (existsSync(binary)) return binary;
      } catch {
        // not installed next to this package or the application: try the next place
      }
    }
  }
  return "anvil";
}


/**
 * Stops a node left running by a previous process on the same state directory (that process was
 * killed and could not stop its child): it would hold the port and keep writing the state file.
 */
/** True when `pid` is an anvil started on `stateFile` (Linux: its command line says so; elsewhere never assumed). */
function isOurAnvil(pid: number, stateFile: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return cmdline.some((arg) => /anvil(\.exe)?$/.test(arg)) && cmdline.includes(stateFile);
  } catch {
    return false;
  }
}

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
 * and written every `stateIntervalSeconds` and on exit, so even `kill -9` loses at most the last
 * interval. A node that a killed process left running on the same `stateDir` is stopped first.
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
