import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentTokenExchangeAbi, xotnAbi } from "@slotgate/contracts";
import { encryptHex } from "@slotgate/protocol/crypto";
import { http, type Address, createPublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainUser, newUser, pinOf, postBasic } from "../support/chain-flows.js";
import { authorizeCode, call, exchange, registerClient } from "../support/flows.js";
import { attachMail, devMailboxCodes } from "../support/harness.js";

/**
 * The development chain keeps its state: `slotgate-server start` (a child process, as a developer runs
 * it) on a temporary data directory, real money moves, then the server is stopped with SIGINT, and
 * later killed with `kill -9` together with its chain after the state interval; each restart finds
 * every wallet, balance, `used_balances`, slot owner and provider registration as it was. The chain
 * is read with viem (not the server's ethers) through the JSON-RPC URL the server prints.
 */
const bin = join(import.meta.dirname, "../../dist/cli.js");
const dataDir = mkdtempSync(join(tmpdir(), "sg-persisted-chain-"));
const mail = devMailboxCodes(dataDir);

interface Running {
  child: ChildProcess;
  url: string;
  rpcUrl: string;
  output: () => string;
}

async function startServer(): Promise<Running> {
  const child = spawn(process.execPath, [bin, "start"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      SLOTGATE_DATA_DIR: dataDir,
      ANVIL_PORT: "0",
      LOG_LEVEL: "warn",
      RATE_LIMIT: "off",
      SLOTGATE_SEED_DEMO: "off",
      DATABASE_URL: "",
      CHAIN: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slotgate-server exited (${child.exitCode}):\n${output}`);
    const url = /Slotgate is running at (http:\/\/\S+)/.exec(output)?.[1];
    const rpcUrl = /Development chain: (http:\/\/\S+)/.exec(output)?.[1];
    if (
      url &&
      rpcUrl &&
      (await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      attachMail(url, mail); // sign-up codes: the development mailbox in the data directory
      return { child, url, rpcUrl, output: () => output };
    }
    if (Date.now() > deadline) throw new Error(`slotgate-server did not become healthy:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A fresh access token of `user` (the issuer is the server's address, which a restart on port 0 changes). */
async function tokenOf(running: Running, user: ChainUser): Promise<string> {
  const again = await authorizeCode(running.url, client, { email: user.email, password: user.password, signup: false });
  return String((await exchange(running.url, client, again.code)).json["access_token"]);
}

async function stop(running: Running, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => running.child.once("exit", resolve));
  running.child.kill(signal);
  await exited;
}

const CUID = "persisted-game";
const PROVIDER = `0x${"5e".repeat(20)}` as Address;
let server: Running;
let client: Awaited<ReturnType<typeof registerClient>>;
let alice: ChainUser;
let bob: ChainUser;
const alicePin = pinOf("246810");
let aliceShare = "";

/** What a user can see, read through the HTTP API and straight from the chain with viem. */
async function observe(running: Running) {
  const chain = createPublicClient({ transport: http(running.rpcUrl) });
  const info = (await call(running.url, "GET", "/v1/chain")).json as { contracts: { xotn: Address; exchange: Address } };
  const exchangeAddress = info.contracts.exchange;
  const signIn = async (user: ChainUser) => {
    const again = await authorizeCode(running.url, client, { email: user.email, password: user.password, signup: false });
    return String((await exchange(running.url, client, again.code)).json["content_address"]);
  };
  const adex = (await call(running.url, "GET", `/v1/development-api/balance_adex/${alice.contentAddress}?cuid=${CUID}`)).json;
  const [balance, used] = (await chain.readContract({
    address: exchangeAddress,
    abi: contentTokenExchangeAbi,
    functionName: "balance_adex",
    args: [alice.contentAddress as Address, CUID],
  })) as [bigint, bigint];
  const provider = (await chain.readContract({ address: exchangeAddress, abi: contentTokenExchangeAbi, functionName: "get_provider", args: [CUID] })) as {
    registered: boolean;
    ownerAddr: string;
  };
  return {
    aliceContentAddress: await signIn(alice),
    bobContentAddress: await signIn(bob),
    balanceAdex: { balance: adex["balance"], used_balances: adex["used_balances"] },
    fromChain: { balance: balance.toString(), used_balances: used.toString() },
    slotOwner: await chain.readContract({ address: exchangeAddress, abi: contentTokenExchangeAbi, functionName: "slot_owner", args: [CUID, 1n] }),
    providerRegistered: provider.registered,
    providerXotn: (await chain.readContract({ address: info.contracts.xotn, abi: xotnAbi, functionName: "balanceOf", args: [PROVIDER] })).toString(),
  };
}

beforeAll(async () => {
  server = await startServer();
  client = await registerClient(server.url, { blockchain: true });
  alice = await newUser(server, client);
  bob = await newUser(server, client);
  const reg = await call(server.url, "POST", "/v1/pin/register", { token: alice.token, body: { user_uuid: alice.uuid, ...alicePin } });
  aliceShare = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
  expect((await call(server.url, "POST", "/v1/pin/register", { token: bob.token, body: { user_uuid: bob.uuid, ...pinOf("135791") } })).status).toBe(200);
  const registration = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
    client_id: client.client_id,
    cuid: CUID,
    release_per: 50,
    owner_addr: PROVIDER,
  });
  expect(registration.status).toBe(200);
  const { aes_key: key, aes_iv: iv } = registration.json as { aes_key: string; aes_iv: string };
  expect((await postBasic(server, client, "/v1/dev/fund_slot", { client_id: client.client_id, user_id: alice.userId, xotn: "1000", cuid: CUID })).status).toBe(
    200,
  );
  const bought = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
    client_id: client.client_id,
    user_dbkey: alice.userId,
    amount: "400",
    cuid: CUID,
  });
  expect(bought.json).toMatchObject({ token_amount: "400", provider_received: "340" });
  const spend = encryptHex(JSON.stringify({ client_id: client.client_id, user_dbkey: alice.userId, amount: "225", cuid: CUID }), key, iv);
  expect((await postBasic(server, client, "/v1/development-api/increase_used_content_token", { encrypted_message: spend })).status).toBe(200);
  expect(
    (await postBasic(server, client, "/v1/dev/register_slot", { client_id: client.client_id, cuid: CUID, meta_idx: 1, user_id: alice.userId })).status,
  ).toBe(200);
  const moved = await call(server.url, "POST", "/idex-platform/exchange_token_owner", {
    token: alice.token,
    body: { state: "persisted-1", cu_id: CUID, from_uuid: alice.userId, to_uuid: bob.userId, meta_idx: 1, ...alicePin, key_share_user: aliceShare },
  });
  expect(moved.status).toBe(200);
}, 240_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) await stop(server, "SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the development chain keeps its state across restarts", () => {
  let before: Awaited<ReturnType<typeof observe>>;

  it("reads the same balances from the chain with viem as balance_adex answers, and the provider's 85 %", async () => {
    before = await observe(server);
    expect(before.balanceAdex).toEqual({ balance: "175", used_balances: "225" });
    expect(before.fromChain).toEqual(before.balanceAdex);
    expect(before.providerXotn).toBe("340"); // 85 % of 400
    expect(before.providerRegistered).toBe(true);
    expect(before.aliceContentAddress).toBe(alice.contentAddress);
    expect(before.slotOwner).not.toBe(`0x${"0".repeat(40)}`);
  });

  it("after SIGINT and a new start: everything unchanged, and the old key share still verifies the PIN", async () => {
    await stop(server, "SIGINT");
    server = await startServer();
    expect(server.output()).not.toContain("contracts deployed now");
    expect(await observe(server)).toEqual(before);
    const verify = await call(server.url, "POST", "/v1/pin/verify", {
      token: await tokenOf(server, alice),
      body: { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare },
    });
    expect(verify.status).toBe(200);
  }, 180_000);

  it("after kill -9 of the server and its chain (past the state interval) and a new start: everything unchanged", async () => {
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the chain writes its state every second
    const anvilPid = Number(readFileSync(join(dataDir, "chain", "anvil.pid"), "utf8"));
    await stop(server, "SIGKILL");
    process.kill(anvilPid, "SIGKILL");
    expect(existsSync(join(dataDir, "chain", "anvil-state.json"))).toBe(true);
    server = await startServer();
    expect(server.output()).not.toContain("chain_behind_database");
    expect(await observe(server)).toEqual(before);
    const verify = await call(server.url, "POST", "/v1/pin/verify", {
      token: await tokenOf(server, alice),
      body: { user_uuid: alice.uuid, ...alicePin, key_share_user: aliceShare },
    });
    expect(verify.status).toBe(200);
  }, 180_000);
});
