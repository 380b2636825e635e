import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encryptWithSpendKey } from "@slotgate/backend-sdk";
import { signUpPlayer } from "@slotgate/server/testing";
import { http, type Address, createPublicClient, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm start` survives kill -9 of its whole process group: scripts/start.mjs (what `npm start` runs after building)
// serves the stack on its embedded defaults; two players' slots get purchases and spends (each answered 200); then
// every process of the group (the script, the server, its Anvil node, the demo app, the marketplace) is killed with
// SIGKILL at once, within the chain's one-second state interval. A new start must find the same balances,
// `used_balances` and slot owners, read from the chain with viem (a client outside the project, with its own ABI
// fragments) and no "not repairable" report. POSIX only: Windows has no process groups nor SIGKILL.

const repo = resolve(import.meta.dirname, "../../..");
const exchangeAbi = parseAbi([
  "function balance_adex(address slot, string cuid) view returns (uint256 balance, uint256 used)",
  "function slot_info(string cuid, uint256 slot) view returns (address owner, address wallet, uint256 trCnt, uint256 balance, uint256 used)",
]);

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), "slotgate-crash-e2e-"));
let env: NodeJS.ProcessEnv;
let service: string;
let stack: { child: ChildProcess; output: () => string } | undefined;

/** Runs scripts/start.mjs as the leader of its own process group and waits for its banner. */
async function boot(): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [join(repo, "scripts/start.mjs")], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  await new Promise<void>((ok, fail) => {
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
      if (output.includes("Press Ctrl-C to stop.")) ok();
    });
    child.once("exit", (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return { child, output: () => output };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL to every process of the group at once; resolves when the chain node is gone too. */
async function killGroup(running: { child: ChildProcess }): Promise<void> {
  const anvilPid = Number(readFileSync(join(dataDir, "chain", "anvil.pid"), "utf8"));
  const exited = new Promise((ok) => running.child.once("exit", ok));
  process.kill(-(running.child.pid as number), "SIGKILL");
  await exited;
  const deadline = Date.now() + 10_000;
  while (processAlive(anvilPid) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 20));
  expect(processAlive(anvilPid)).toBe(false);
}

const readJson = (file: string) => JSON.parse(readFileSync(join(dataDir, file), "utf8"));

async function call(
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; basic?: { client_id: string; client_secret: string }; form?: URLSearchParams } = {},
) {
  const headers: Record<string, string> = {};
  if (options.basic)
    headers["authorization"] =
      `Basic ${Buffer.from(`${encodeURIComponent(options.basic.client_id)}:${encodeURIComponent(options.basic.client_secret)}`).toString("base64")}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.form) headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await fetch(service + path, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : options.form ? { body: options.form.toString() } : {}),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** What the chain says of the slots, through viem and the JSON-RPC URL `GET /v1/chain` gives. */
async function readChain(cuid: string, slots: readonly { wallet: Address; metaIdx: bigint }[]) {
  const info = (await call("GET", "/v1/chain")).json as { rpc_url: string; contracts: { exchange: Address } };
  const chain = createPublicClient({ transport: http(info.rpc_url) });
  const exchange = info.contracts.exchange;
  const read = [];
  for (const slot of slots) {
    const [balance, used] = await chain.readContract({ address: exchange, abi: exchangeAbi, functionName: "balance_adex", args: [slot.wallet, cuid] });
    const [owner, wallet] = await chain.readContract({ address: exchange, abi: exchangeAbi, functionName: "slot_info", args: [cuid, slot.metaIdx] });
    read.push({ wallet, owner, balance: balance.toString(), used_balances: used.toString() });
  }
  return { head: await chain.getBlockNumber(), slots: read };
}

/** The meta_idx of a slot wallet once its registration (`buy_slot`) landed, read from the chain. */
async function metaIdxOf(cuid: string, wallet: string): Promise<bigint> {
  const info = (await call("GET", "/v1/chain")).json as { rpc_url: string; contracts: { exchange: Address } };
  const chain = createPublicClient({ transport: http(info.rpc_url) });
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (let i = 0n; i < 16n; i++) {
      const [owner, found] = await chain.readContract({ address: info.contracts.exchange, abi: exchangeAbi, functionName: "slot_info", args: [cuid, i] });
      if (found.toLowerCase() === wallet.toLowerCase() && owner !== "0x0000000000000000000000000000000000000000") return i;
    }
    if (Date.now() > deadline) throw new Error(`slot ${wallet} of ${cuid} was not registered on the chain`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}

beforeAll(async () => {
  const [port, webPort, marketPort, idpPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  service = `http://localhost:${port}`;
  env = {
    ...process.env,
    PORT: String(port),
    WEB_PORT: String(webPort),
    MARKET_PORT: String(marketPort),
    LOCAL_IDP_PORT: String(idpPort),
    SLOTGATE_DATA_DIR: dataDir,
    RATE_LIMIT: "off",
    ANVIL_PORT: "0",
  };
  stack = await boot();
}, 300_000);

afterAll(async () => {
  if (stack && stack.child.exitCode === null && stack.child.signalCode === null) {
    const exited = new Promise((ok) => stack?.child.once("exit", ok));
    stack.child.kill("SIGTERM");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start after kill -9 of its whole process group", () => {
  it("reads the same balances, used_balances and slot owners from the chain, every answered purchase and spend kept", async () => {
    // The demo client and its provider registration, as npm start seeded them in the data directory.
    const provider = readJson("demo-provider.json") as { client_id: string; cuid: string; aes_key: string; aes_iv: string };
    const client = ["demo-client.json", `demo-web-client-${env["WEB_PORT"]}.json`]
      .filter((file) => existsSync(join(dataDir, file)))
      .map((file) => readJson(file) as { client_id: string; client_secret: string; redirect_uris: string[] })
      .find((c) => c.client_id === provider.client_id);
    if (!client) throw new Error("npm start kept no client for its provider registration");
    const { cuid } = provider;

    // Two players, each with a funded slot of the demo cuid.
    const slots: Array<{ userId: string; wallet: Address; metaIdx: bigint }> = [];
    for (const n of [1, 2]) {
      const email = `crash-${n}-${Date.now()}@example.com`;
      const res = await signUpPlayer(service, dataDir, {
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[1] as string,
        state: `crash-${n}`,
        email,
        password: "crash-test-password",
      });
      const code = new URL(res.headers.get("location") ?? "http://x").searchParams.get("code");
      expect(code, `sign-up answered ${res.status}`).toBeTruthy();
      const form = new URLSearchParams({
        grant_type: "authorization_code",
        code: code as string,
        redirect_uri: client.redirect_uris[1] as string,
        client_id: client.client_id,
        client_secret: client.client_secret,
      });
      const token = await call("POST", "/oauth/token", { form });
      expect(token.status).toBe(200);
      const userId = String(token.json["user_id"]);
      const funded = await call("POST", "/v1/dev/fund_slot", { basic: client, body: { client_id: client.client_id, user_id: userId, xotn: "2000", cuid } });
      expect(funded.status).toBe(200);
      const wallet = funded.json["slot"] as Address;
      slots.push({ userId, wallet, metaIdx: await metaIdxOf(cuid, wallet) });
    }

    // Purchases and spends on both slots, one after another, each answered 200 (landed, not 202).
    const buy = (slot: number, amount: string) =>
      call("POST", "/v1/development-api/user_buy_content_token", {
        basic: client,
        body: { client_id: client.client_id, user_dbkey: slots[slot]?.userId, amount, cuid },
      });
    const spend = (slot: number, amount: string) =>
      call("POST", "/v1/development-api/increase_used_content_token", {
        basic: client,
        body: {
          encrypted_message: encryptWithSpendKey(JSON.stringify({ client_id: client.client_id, user_dbkey: slots[slot]?.userId, amount, cuid }), {
            key: provider.aes_key,
            iv: provider.aes_iv,
          }),
        },
      });
    const answers = [];
    for (const step of [
      () => buy(0, "100"),
      () => spend(0, "25"),
      () => buy(1, "300"),
      () => buy(0, "125"),
      () => spend(1, "120"),
      () => spend(0, "50"),
      () => buy(1, "40"),
      () => spend(1, "30"),
    ]) {
      answers.push((await step()).status);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    const before = await readChain(cuid, slots);
    expect(before.slots.map((s) => [s.balance, s.used_balances])).toEqual([
      ["150", "75"],
      ["190", "150"],
    ]);

    // Everything at once, within the state interval of the last writes.
    await killGroup(stack as { child: ChildProcess });
    const stateFile = join(dataDir, "chain", "anvil-state.json");
    let kept: number | null = null;
    try {
      kept = Number(JSON.parse(readFileSync(stateFile, "utf8")).best_block_number);
    } catch {
      kept = null; // cut short in the middle of a write: the copy of the previous start is loaded
    }

    stack = await boot();
    const after = await readChain(cuid, slots);
    expect(after.slots).toEqual(before.slots);
    expect(after.head).toBeGreaterThanOrEqual(before.head);
    const output = stack.output();
    expect(output).not.toMatch(/not repairable|could not be rebuilt|chain lacks what the database recorded/i);
    // When the node's last state file ended before the last writes' blocks, they were rebuilt from the database.
    if (kept === null || BigInt(kept) < before.head) expect(output).toMatch(/kept transactions? sent again landed as they first did/);

    // The stack goes on from there: the next purchase lands on top.
    expect((await buy(0, "5")).status).toBe(200);
    expect((await readChain(cuid, slots.slice(0, 1))).slots[0]?.balance).toBe("155");
  }, 600_000);
});
