import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HARDHAT_MNEMONIC } from "@slotgate/chain-service";
import { type DeployResult, deploy } from "@slotgate/contracts";
import { HDNodeWallet, JsonRpcProvider, Mnemonic, Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/index.js";
import { newUser, pinOf, postBasic } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Production configuration: the server reaches a JSON-RPC node (`hardhat node` as a child process)
 * with a deployment and keys given in the environment, exactly as an operator configures it.
 */
const port = 20_000 + Math.floor(Math.random() * 20_000);
const rpcUrl = `http://127.0.0.1:${port}`;
const [operatorKey, paymasterSignerKey, bundlerKey] = (() => {
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(HARDHAT_MNEMONIC), "m/44'/60'/0'/0");
  return [10, 11, 12].map((i) => root.deriveChild(i).privateKey) as [string, string, string];
})();
let node: ChildProcess;
let deployed: DeployResult;
let server: TestServer;
let env: Record<string, string>;
const dataDir = mkdtempSync(join(tmpdir(), "slotgate-rpc-cli-"));

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "slotgate-node-"));
  const config = join(dir, "hardhat.config.cjs");
  writeFileSync(config, 'module.exports = { networks: { hardhat: { chainId: 31337, hardfork: "cancun" } } };\n');
  const cli = createRequire(join(process.cwd(), "noop.js")).resolve("hardhat/internal/cli/cli");
  node = spawn(process.execPath, [cli, "node", "--hostname", "127.0.0.1", "--port", String(port), "--config", config], { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("hardhat node did not start")), 60_000);
    node.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Started HTTP")) {
        clearTimeout(timer);
        resolve();
      }
    });
    node.once("exit", (code) => reject(new Error(`hardhat node exited with ${code}`)));
  });
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
  deployed = await deploy(new Wallet(operatorKey, provider), { paymasterSigner: new Wallet(paymasterSignerKey).address, paymasterDeposit: 10n ** 19n });
  provider.destroy();
  env = {
    RPC_URL: rpcUrl,
    CHAIN_KEK: randomBytes(32).toString("hex"),
    XOTN_ADDRESS: deployed.xotn,
    EXCHANGE_ADDRESS: deployed.exchange,
    ENTRYPOINT_ADDRESS: deployed.entryPoint,
    FACTORY_ADDRESS: deployed.factory,
    PAYMASTER_ADDRESS: deployed.paymaster,
    OPERATOR_KEY: operatorKey,
    PAYMASTER_SIGNER_KEY: paymasterSignerKey,
    BUNDLER_KEY: bundlerKey,
  };
  server = await startTestServer({ ...env, CHAIN: "" });
});
afterAll(async () => {
  await server?.close();
  node?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("RPC_URL configuration", () => {
  it("health reports rpc; the dev-only routes are not served", async () => {
    expect((await call(server.url, "GET", "/healthz")).json).toMatchObject({ status: "ok", chain: "rpc" });
    const dev = await call(server.url, "POST", "/v1/dev/fund_slot", { body: {} });
    expect([dev.status, dev.json["error"]]).toEqual([404, "not_found"]);
  });

  it("PIN register and a sponsored token transfer land on the node", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const user = await newUser(server, client);
    const pin = pinOf("112233");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: user.token, body: { user_uuid: user.uuid, ...pin } });
    const data = (reg.json["data"] as Array<{ address: string; key_share_user: string }>)[0]!;
    await server.slotgate.services.chain!.service.fundWallet({ user_uuid: user.uuid, xotn: "50", wallet: "user" });
    const to = Wallet.createRandom().address;
    const res = await call(server.url, "POST", "/v1/token/transfer", { token: user.token, body: { from_address: data.address, to_address: to, amount: "20", contract_address: deployed.xotn, pin_hash: pin.pin_hash, key_share_user: data.key_share_user } });
    expect(res.status).toBe(200);
    const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
    const receipt = await provider.getTransactionReceipt(String(res.json["transaction_hash"]));
    provider.destroy();
    expect(receipt?.status).toBe(1);
  });

  it("the operator CLI enables release with the same environment", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const cuid = `rpc-${Date.now()}`;
    expect((await postBasic(server, client, "/v1/development-api/init_permission_provider", { client_id: client.client_id, cuid, release_per: 10, owner_addr: `0x${"ef".repeat(20)}` })).status).toBe(200);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(["release", "enable", "--cuid", cuid], { ...env, SLOTGATE_DATA_DIR: dataDir, LOG_LEVEL: "silent" }, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code, err.join("\n")).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ success: true, cuid, enabled: true });
    const fund = await runCli(["dev", "fund-slot", "--user-id", "5", "--xotn", "1"], { ...env, SLOTGATE_DATA_DIR: dataDir, LOG_LEVEL: "silent" }, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(fund, "the faucet refuses a real chain").toBe(1);
    expect(JSON.parse(err.at(-1)!)).toMatchObject({ error: "service_unavailable" });
  });
});
