import { Interface, JsonRpcProvider, Wallet } from "ethers";
import { entryPointAbi, handleOpsTransaction, prepareSponsoredUserOperation, sponsorshipWindow } from "@slotgate/contracts";
import { openDatabase } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilProcess, type ChainService, type RpcChainConfig, startAnvil } from "../src/index.js";
import { runWalletOperation } from "../src/operations/wallet-operation.js";
import { createContext } from "../src/context.js";
import type { ServiceContext } from "../src/service-context.js";
import { serviceOver } from "../src/surface.js";
import { TEST_KEYS, deployTestSystem, freshKeys, landedAnswer, newUserId, pinOf, testIdentity } from "./helpers/setup.js";

// Finding 5 of issue 21: on a chain that mines a block every N seconds (an L2-like chain), a node that
// simulates at the latest block's time sees a sponsorship starting "now" as not due yet (AA32). The
// window starts a minute in the past, so operations are accepted.

const BLOCK_TIME = 1;
let anvil: AnvilProcess;
let provider: JsonRpcProvider;
let chain: RpcChainConfig;
let ctx: ServiceContext;
let service: ChainService;

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, blockTimeSeconds: BLOCK_TIME });
  provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1 });
  chain = await deployTestSystem(anvil.rpcUrl);
  ctx = await createContext({ db: await openDatabase({}), ...freshKeys(), chain, warn: () => undefined });
  service = serviceOver(ctx);
}, 180_000);
afterAll(async () => {
  await service?.close();
  provider?.destroy();
  await anvil?.stop();
});

/** The latest block, once the wall clock has moved past its timestamp (so "now" is after it). */
async function blockBehindTheClock() {
  for (;;) {
    const block = await provider.getBlock("latest");
    if (block !== null && Math.floor(Date.now() / 1000) > block.timestamp) return block;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe(`a chain with --block-time ${BLOCK_TIME}`, () => {
  it("accepts sponsored operations: the wallet deploys and a transfer lands", async () => {
    const user = newUserId();
    const pin = pinOf("424242");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    await service.fundWallet({ user_uuid: user, xotn: "100", wallet: "user" });
    const to = Wallet.createRandom().address;
    const credentials = { user_uuid: user, ...pin, key_share_user: reg.key_share_user };
    const transfer = { kind: "erc20_transfer" as const, from_address: reg.address, to_address: to, amount: "3", contract_address: service.addresses.xotn };
    const first = landedAnswer(await runWalletOperation(ctx, credentials, transfer, testIdentity(`user:${user}`)));
    expect(first.deployed_wallet).toBe(true);
    landedAnswer(await runWalletOperation(ctx, credentials, transfer, testIdentity(`user:${user}`)));
    expect(await ctx.contracts.xotn.balanceOf(to)).toBe(6n);
  });

  it("is due at the latest block, where a window starting at the wall clock is not (AA32)", async () => {
    const owner = Wallet.createRandom();
    const prepare = (window: { validAfter: number; validUntil: number }) =>
      prepareSponsoredUserOperation({
        provider,
        addresses: chain.addresses,
        owner,
        paymasterSigner: new Wallet(TEST_KEYS.paymasterSignerKey),
        calls: { to: Wallet.createRandom().address, data: "0x" },
        window,
      });
    const block = await blockBehindTheClock();
    const now = Math.floor(Date.now() / 1000);
    const simulateAt = async (window: { validAfter: number; validUntil: number }) => {
      const tx = handleOpsTransaction(chain.addresses.entryPoint, [(await prepare(window)).userOperation], new Wallet(TEST_KEYS.bundlerKey).address);
      const data = await provider.call({ ...tx, from: new Wallet(TEST_KEYS.bundlerKey).address, blockTag: block.number }).then(
        () => "ok",
        (error: { data?: string }) => error.data ?? "no data",
      );
      if (data === "ok") return "ok";
      const parsed = new Interface(entryPointAbi).parseError(data);
      return parsed?.name === "FailedOp" ? String(parsed.args[1]) : (parsed?.name ?? data);
    };
    expect(await simulateAt({ validAfter: now, validUntil: now + 300 })).toBe("AA32 paymaster expired or not due");
    const window = await sponsorshipWindow(provider);
    expect(window.validAfter).toBeLessThan(block.timestamp);
    expect(await simulateAt(window)).toBe("ok");
  });
});
