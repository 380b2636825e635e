import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractsError, getUserOpHash, handleOpsTransaction, simulateHandleOps } from "@slotgate/contracts";
import { ChainServiceError, developmentKey } from "../src/index.js";
import { operationOf, type OperationPayload } from "../src/writes/operation-planner.js";
import { externalBundlerId } from "../src/writes/external-writer.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";

/**
 * A small ERC-4337 v0.6 bundler on 127.0.0.1 as an external one behaves: it simulates each operation
 * and refuses the ones the EntryPoint would (JSON-RPC error with the reason), sends the others in a
 * handleOps transaction of its own key, and answers eth_getUserOperationReceipt once it landed.
 */
let server: Server;
let url: string;
const calls: string[] = [];
let refuseNext: string | null = null;
/** Senders with an operation at the bundler, and sends that found their sender already there. */
const inFlight = new Set<string>();
let overlapping = 0;

let h: Harness;
let ext: Harness;
beforeAll(async () => {
  h = await startService();
  const ctx = h.ctx;
  const bundler = new Wallet(developmentKey(6), ctx.provider);
  const receipts = new Map<string, string>();
  let queue = Promise.resolve();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", async () => {
      const { id, method, params } = JSON.parse(body);
      calls.push(method);
      const reply = (payload: object) => res.end(JSON.stringify({ jsonrpc: "2.0", id, ...payload }));
      if (method === "eth_sendUserOperation") {
        const [rpcOp, entryPoint] = params as [OperationPayload["op"], string];
        if (refuseNext !== null) {
          const message = refuseNext;
          refuseNext = null;
          return reply({ error: { code: -32500, message } });
        }
        const op = operationOf({ op: rpcOp } as OperationPayload);
        const hash = getUserOpHash(op, entryPoint, ctx.chainId);
        if (receipts.has(hash)) return reply({ result: hash });
        if (inFlight.has(op.sender)) overlapping += 1;
        inFlight.add(op.sender);
        const tx = handleOpsTransaction(entryPoint, [op], bundler.address);
        try {
          await simulateHandleOps(ctx.provider, tx, bundler.address);
        } catch (error) {
          const reason = error instanceof ContractsError ? (error.reason ?? error.message) : "simulation failed";
          inFlight.delete(op.sender);
          return reply({ error: { code: -32500, message: `userOp refused: ${reason}` } });
        }
        queue = queue.then(async () => {
          const sent = await bundler.sendTransaction(tx);
          const mined = await sent.wait();
          receipts.set(hash, mined!.hash);
          inFlight.delete(op.sender);
        });
        return reply({ result: hash });
      }
      if (method === "eth_getUserOperationReceipt") {
        const txHash = receipts.get(params[0]);
        return reply({ result: txHash ? { success: true, receipt: { transactionHash: txHash } } : null });
      }
      return reply({ error: { code: -32601, message: "method not found" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc?apikey=secret-in-the-url`;
  ext = await startService({ bundler: { kind: "external", url, pollIntervalMs: 20 }, keyEncryptionKey: h.ctx.kek.toString("hex") });
});
afterAll(async () => {
  await ext?.service.close();
  await h?.service.close();
  await new Promise((resolve) => server.close(resolve));
});

async function user() {
  const id = newUserId();
  const pin = pinOf("808080");
  const reg = (await ext.service.registerPin({ user_uuid: id, ...pin })).data[0]!;
  await ext.service.fundWallet({ user_uuid: id, xotn: "100", wallet: "user" });
  return { id, pin, reg };
}

describe("an external bundler", () => {
  it("receives the service's operations (one per wallet at a time) and they land exactly once", async () => {
    expect(ext.ctx.signers.bundler).toBe(externalBundlerId(ext.ctx.addresses.entryPoint));
    const { id, pin, reg } = await user();
    const to = Wallet.createRandom().address;
    const transfer = (amount: string) => ({
      from_address: reg.address,
      to_address: to,
      amount,
      contract_address: ext.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    });
    const results = await Promise.all(["1", "2", "3"].map((amount) => ext.service.transferToken(id, transfer(amount))));
    expect(new Set(results.map((r) => r.transaction_hash)).size).toBe(3);
    expect(await ext.ctx.contracts.xotn.balanceOf(to)).toBe(6n);
    expect(calls).toContain("eth_sendUserOperation");
    expect(calls).toContain("eth_getUserOperationReceipt");
    expect(overlapping).toBe(0);
  });

  it("an operation the bundler refuses fails with its reason (never the URL), and the wallet's next operation reads its nonce again", async () => {
    const { id, pin, reg } = await user();
    const to = Wallet.createRandom().address;
    const transfer = {
      from_address: reg.address,
      to_address: to,
      amount: "4",
      contract_address: ext.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    };
    refuseNext = "AA25 invalid account nonce";
    const error = (await ext.service.transferToken(id, transfer).catch((e: unknown) => e)) as ChainServiceError;
    expect(error).toBeInstanceOf(ChainServiceError);
    expect(error.code).toBe("chain_reverted");
    expect(error.message).toContain("AA25");
    expect(error.message).not.toContain("secret-in-the-url");
    expect(error.message).not.toContain("127.0.0.1");
    // The refused operation used nonce 0 in the database; the next one is built from the chain's nonce again.
    expect((await ext.service.transferToken(id, transfer)).transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await ext.ctx.contracts.xotn.balanceOf(to)).toBe(4n);
  });
});
