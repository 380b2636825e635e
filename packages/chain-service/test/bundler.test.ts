import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbiCoder, type BaseWallet, Wallet, dataLength, dataSlice, getBytes } from "ethers";
import {
  type UserOperation,
  W_SALT,
  buildUserOperation,
  computeWalletAddress,
  encodeExecute,
  encodeInitCode,
  getUserOpHash,
  signUserOperation,
  sponsorUserOperation,
} from "@slotgate/contracts";
import { BuiltInBundler, type ChainServiceError, ExternalBundler, type UserOperationReceipt, paymasterHash } from "../src/index.js";
import { sponsorOffChain } from "../src/bundler/paymaster-hash.js";
import { WalletNonces } from "../src/bundler/nonces.js";
import { SponsoredOperations } from "../src/operations/sponsored.js";
import { SerialTxSender } from "../src/chain/tx-queue.js";
import { startInProcessChain } from "../src/chain/in-process.js";
import { contextOf } from "../src/service.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";

let h: Harness;
let paymasterSigner: Wallet;
beforeAll(async () => {
  h = await startService();
  const chain = await startInProcessChain();
  paymasterSigner = new Wallet(chain.devKey(1), chain.provider);
});
afterAll(async () => {
  await h.service.close();
});

const emptyCall = () => encodeExecute({ to: `0x${"22".repeat(20)}`, data: "0x" });

async function opFor(owner: BaseWallet, nonce: bigint, paymasterNonce: bigint, validForSeconds = 300): Promise<UserOperation> {
  const ctx = contextOf(h.service);
  const sender = computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT);
  const block = await ctx.provider.getBlock("latest");
  const now = Math.max(Math.floor(Date.now() / 1000), block!.timestamp);
  const op = buildUserOperation({
    sender,
    nonce,
    callData: emptyCall(),
    initCode: nonce === 0n ? encodeInitCode(ctx.addresses.factory, owner.address, W_SALT) : "0x",
    maxFeePerGas: 3_000_000_000n,
  });
  const sponsored = await sponsorOffChain(op, {
    paymaster: ctx.addresses.paymaster,
    paymasterSigner,
    chainId: ctx.chainId,
    paymasterNonce,
    window: { validAfter: now - 10, validUntil: now + validForSeconds },
  });
  return signUserOperation(sponsored, owner, { entryPoint: ctx.addresses.entryPoint, chainId: ctx.chainId });
}

describe("paymaster hash", () => {
  it("equals the paymaster's on-chain getHash", async () => {
    const ctx = contextOf(h.service);
    const owner = Wallet.createRandom();
    const op = buildUserOperation({
      sender: computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT),
      nonce: 0n,
      callData: emptyCall(),
      initCode: encodeInitCode(ctx.addresses.factory, owner.address, W_SALT),
      maxFeePerGas: 1n,
    });
    const onChain = await sponsorUserOperation(op, {
      paymaster: ctx.addresses.paymaster,
      signer: paymasterSigner,
      runner: ctx.provider,
      window: { validAfter: 100, validUntil: 400 },
    });
    const offChain = await sponsorOffChain(op, {
      paymaster: ctx.addresses.paymaster,
      paymasterSigner,
      chainId: ctx.chainId,
      paymasterNonce: 0n,
      window: { validAfter: 100, validUntil: 400 },
    });
    expect(offChain.paymasterAndData).toBe(onChain.paymasterAndData);
    const hash = paymasterHash({ ...offChain }, ctx.chainId, ctx.addresses.paymaster, 0n, { validAfter: 100, validUntil: 400 });
    expect(hash).toBe(await ctx.contracts.paymaster.getHash(offChain, 400, 100));
    expect(getBytes(hash)).toHaveLength(32);
  });
});

describe("built-in bundler", () => {
  it("drops a refused operation (expired sponsorship) and still lands the rest of the batch", async () => {
    const ctx = contextOf(h.service);
    const chain = await startInProcessChain();
    const bundler = new BuiltInBundler({
      entryPoint: ctx.addresses.entryPoint,
      chainId: ctx.chainId,
      sender: new SerialTxSender(new Wallet(chain.devKey(5), chain.provider)),
      batchIntervalMs: 50,
    });
    const good = await opFor(Wallet.createRandom(), 0n, 0n);
    const expired = await opFor(Wallet.createRandom(), 0n, 0n, -5);
    const alsoGood = await opFor(Wallet.createRandom(), 0n, 0n);
    const results = await Promise.allSettled([bundler.submit(good), bundler.submit(expired), bundler.submit(alsoGood)]);
    expect(results[0]!.status).toBe("fulfilled");
    expect(results[2]!.status).toBe("fulfilled");
    expect(results[1]!.status).toBe("rejected");
    const reason = (results[1] as PromiseRejectedResult).reason as ChainServiceError;
    expect(reason.code).toBe("chain_reverted");
    expect(reason.message).toContain("AA32");
    const [a, c] = [results[0], results[2]] as PromiseFulfilledResult<UserOperationReceipt>[];
    expect(a!.value.transactionHash).toBe(c!.value.transactionHash);
    expect(bundler.stats).toMatchObject({ batches: 1, included: 2, dropped: 1, largestBatch: 2 });
    await bundler.close();
    await expect(bundler.submit(good)).rejects.toMatchObject({ code: "service_unavailable" });
  });
});

describe("external bundler client", () => {
  let server: Server;
  let url: string;
  const inner = new Map<string, BuiltInBundler>();
  const receipts = new Map<string, UserOperationReceipt>();
  const calls: string[] = [];

  beforeAll(async () => {
    const ctx = contextOf(h.service);
    const chain = await startInProcessChain();
    const sender = new SerialTxSender(new Wallet(chain.devKey(6), chain.provider));
    // A minimal ERC-4337 bundler JSON-RPC endpoint on 127.0.0.1, backed by a built-in bundler per EntryPoint.
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", async () => {
        const { id, method, params } = JSON.parse(body);
        calls.push(method);
        const reply = (payload: object) => res.end(JSON.stringify({ jsonrpc: "2.0", id, ...payload }));
        if (method === "eth_sendUserOperation") {
          const [rpcOp, entryPoint] = params as [Record<string, string>, string];
          if ((await chain.provider.getCode(entryPoint)) === "0x") {
            return reply({ error: { code: -32602, message: "unsupported entrypoint" } });
          }
          let bundler = inner.get(entryPoint);
          if (!bundler) {
            bundler = new BuiltInBundler({ entryPoint, chainId: ctx.chainId, sender });
            inner.set(entryPoint, bundler);
          }
          const op = {
            ...rpcOp,
            nonce: BigInt(rpcOp.nonce!),
            callGasLimit: BigInt(rpcOp.callGasLimit!),
            verificationGasLimit: BigInt(rpcOp.verificationGasLimit!),
            preVerificationGas: BigInt(rpcOp.preVerificationGas!),
            maxFeePerGas: BigInt(rpcOp.maxFeePerGas!),
            maxPriorityFeePerGas: BigInt(rpcOp.maxPriorityFeePerGas!),
          } as UserOperation;
          bundler
            .submit(op)
            .then((r) => receipts.set(r.userOpHash, r))
            .catch(() => undefined);
          return reply({ result: getUserOpHash(op, entryPoint, ctx.chainId) });
        }
        if (method === "eth_getUserOperationReceipt") {
          const r = receipts.get(params[0]);
          return reply({ result: r ? { success: r.success, receipt: { transactionHash: r.transactionHash } } : null });
        }
        return reply({ error: { code: -32601, message: "method not found" } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  });
  afterAll(async () => {
    for (const bundler of inner.values()) await bundler.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends eth_sendUserOperation and waits for eth_getUserOperationReceipt", async () => {
    const ctx = contextOf(h.service);
    const external = new ExternalBundler({ url, entryPoint: ctx.addresses.entryPoint, chainId: ctx.chainId, pollIntervalMs: 20 });
    const owner = Wallet.createRandom();
    const receipt = await external.submit(await opFor(owner, 0n, 0n));
    expect(receipt.success).toBe(true);
    expect(receipt.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await ctx.provider.getCode(computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT))).not.toBe("0x");
    expect(calls).toContain("eth_sendUserOperation");
    expect(calls).toContain("eth_getUserOperationReceipt");
    await external.close();
  });

  it("maps a JSON-RPC error to chain_reverted without echoing the URL", async () => {
    const ctx = contextOf(h.service);
    const external = new ExternalBundler({ url, entryPoint: `0x${"33".repeat(20)}`, chainId: ctx.chainId });
    const error = (await external.submit(await opFor(Wallet.createRandom(), 0n, 0n)).catch((e: unknown) => e)) as ChainServiceError;
    expect(error.code).toBe("chain_reverted");
    expect(error.message).not.toContain("127.0.0.1");
  });

  it("runs a whole service's sponsored operations through the external bundler", async () => {
    const ext = await startService({ bundler: { kind: "external", url, pollIntervalMs: 20 } });
    try {
      expect(contextOf(ext.service).submitter).toBeInstanceOf(ExternalBundler);
      const user = newUserId();
      const pin = pinOf("808080");
      const reg = (await ext.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
      await ext.service.fundWallet({ user_uuid: user, xotn: "100", wallet: "user" });
      const to = Wallet.createRandom().address;
      const results = await Promise.all(
        [1, 2, 3].map((amount) =>
          ext.service.verifyPin({
            user_uuid: user,
            ...pin,
            key_share_user: reg.key_share_user,
            operation: { kind: "erc20_transfer", from_address: reg.address, to_address: to, amount: String(amount), contract_address: ext.service.addresses.xotn },
          }),
        ),
      );
      expect(results.filter((r) => r.deployed_wallet)).toHaveLength(1);
      expect(await contextOf(ext.service).contracts.xotn.balanceOf(to)).toBe(6n);
    } finally {
      await ext.service.close();
    }
  });
});

describe("sponsorship window", () => {
  it("signs validAfter = now and validUntil = now + 5 minutes (spec 4.11)", async () => {
    const ctx = contextOf(h.service);
    const seen: UserOperation[] = [];
    const recording = {
      pipelinesPerWallet: true,
      submit: async (op: UserOperation) => {
        seen.push(op);
        return { userOpHash: "0x", transactionHash: "0x", success: true };
      },
      close: async () => undefined,
    };
    const sponsored = new SponsoredOperations({
      provider: ctx.provider,
      addresses: ctx.addresses,
      chainId: ctx.chainId,
      paymasterSigner,
      nonces: new WalletNonces(ctx.provider, ctx.addresses.entryPoint, ctx.addresses.paymaster),
      submitter: recording,
      validForSeconds: 300,
    });
    const owner = Wallet.createRandom();
    const before = Math.floor(Date.now() / 1000);
    await sponsored.send({
      sender: computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT),
      deployment: { initialOwner: owner.address, salt: W_SALT },
      callData: emptyCall(),
      ownerKey: Buffer.from(owner.privateKey.slice(2), "hex"),
    });
    const op = seen[0]!;
    expect(op.initCode).not.toBe("0x");
    expect(op.paymasterAndData.slice(0, 42).toLowerCase()).toBe(ctx.addresses.paymaster.toLowerCase());
    const [validUntil, validAfter] = AbiCoder.defaultAbiCoder().decode(["uint48", "uint48"], dataSlice(op.paymasterAndData, 20, 84));
    expect(Number(validUntil) - Number(validAfter)).toBe(300);
    expect(Number(validAfter)).toBeGreaterThanOrEqual(before - 1);
    expect(dataLength(op.paymasterAndData)).toBe(20 + 64 + 65);
    expect(dataLength(op.signature)).toBe(65);
  });
});

