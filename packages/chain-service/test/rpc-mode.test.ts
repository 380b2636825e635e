import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HDNodeWallet, JsonRpcProvider, Mnemonic, Wallet } from "ethers";
import { type DeployResult, deploy } from "@slotgate/contracts";
import { type ChainService, type ChainServiceError, HARDHAT_MNEMONIC, createChainService, fromPGlite } from "../src/index.js";
import { PGlite } from "@electric-sql/pglite";
import { newUserId, pinOf } from "./helpers/setup.js";

// Production mode against a real JSON-RPC node: `hardhat node` as a child process on 127.0.0.1.
const port = 20_000 + Math.floor(Math.random() * 20_000);
const rpcUrl = `http://127.0.0.1:${port}`;
const keys = (() => {
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(HARDHAT_MNEMONIC), "m/44'/60'/0'/0");
  return [7, 8, 9].map((i) => root.deriveChild(i).privateKey);
})();
let node: ChildProcess;
let deployed: DeployResult;
let service: ChainService;
const pglite = new PGlite();

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "slotgate-node-"));
  const config = join(dir, "hardhat.config.cjs");
  writeFileSync(config, 'module.exports = { networks: { hardhat: { chainId: 31337, hardfork: "cancun" } } };\n');
  const cli = createRequire(join(process.cwd(), "noop.js")).resolve("hardhat/internal/cli/cli");
  node = spawn(process.execPath, [cli, "node", "--hostname", "127.0.0.1", "--port", String(port), "--config", config], {
    cwd: process.cwd(), // Hardhat refuses to run outside a project that installs it
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  const [operatorKey, paymasterSignerKey] = keys as [string, string, string];
  deployed = await deploy(new Wallet(operatorKey, provider), { paymasterSigner: new Wallet(paymasterSignerKey).address });
  provider.destroy();
  service = await createChainService({
    db: fromPGlite(pglite),
    keyEncryptionKey: randomBytes(32),
    chain: { kind: "rpc", rpcUrl, addresses: deployed, operatorKey, paymasterSignerKey, bundlerKey: keys[2] as string },
    warn: () => undefined,
  });
});

afterAll(async () => {
  await service?.close();
  node?.kill();
});

describe("RPC mode (configured deployment)", () => {
  it("signs, sponsors and bundles on a JSON-RPC node", async () => {
    const user = newUserId();
    const pin = pinOf("654321");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    await service.fundWallet({ user_uuid: user, xotn: "10", wallet: "user" });
    const to = Wallet.createRandom().address;
    const result = await service.verifyPin({
      user_uuid: user,
      ...pin,
      key_share_user: reg.key_share_user,
      operation: { kind: "erc20_transfer", from_address: reg.address, to_address: to, amount: "3", contract_address: deployed.xotn },
    });
    expect(result.deployed_wallet).toBe(true);
    expect(service.addresses.xotn).toBe(deployed.xotn);
  });

  it("refuses a paymaster signer key that is not the paymaster's signer, and a missing contract", async () => {
    const [operatorKey] = keys as [string];
    const start = (overrides: object) =>
      createChainService({
        db: fromPGlite(pglite),
        keyEncryptionKey: randomBytes(32),
        chain: { kind: "rpc", rpcUrl, addresses: deployed, operatorKey, paymasterSignerKey: operatorKey, bundlerKey: operatorKey, ...overrides },
        warn: () => undefined,
      }).catch((e: unknown) => e as ChainServiceError);
    const wrongSigner = (await start({})) as ChainServiceError;
    expect(wrongSigner.code).toBe("chain_unavailable");
    expect(wrongSigner.message).toContain("verifyingSigner");
    const missing = (await start({ addresses: { ...deployed, factory: `0x${"44".repeat(20)}` } })) as ChainServiceError;
    expect(missing.message).toContain("factory");
  });
});
