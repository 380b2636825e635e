import { Wallet } from "ethers";
import type { Database } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, TEST_KEYS, newUserId, pinOf, sharedSystem, startService } from "./setup.js";
import { type RpcRequest, type StallingNode, startStallingNode } from "./stalling-node.js";

/** The write pipeline's own node calls (the bundler's simulation and sending, receipts, logs): never held here. */
const PIPELINE = new Set(["eth_sendRawTransaction", "eth_getTransactionReceipt", "eth_getLogs", "eth_getTransactionByHash"]);

/** Rejects when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Locks other sessions hold on this schema's `cs_wallet_nonces` (the row a wallet's nonce is taken
 * under). On PGlite, whose one connection a transaction holds until it ends, the query itself waits
 * for any open transaction.
 */
async function walletNonceLocks(db: Database): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
     WHERE c.relname = 'cs_wallet_nonces' AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
       AND l.pid <> pg_backend_pid()`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Node calls happen before or after the database transaction of a PIN operation, never inside it: a
 * node that stops answering one wallet's calls holds that wallet's operation, not the database, and
 * other wallets' operations are signed, recorded and land meanwhile. Run on PGlite and on PostgreSQL.
 */
export function defineNodeStallSuite(name: string, open: () => Promise<Database>): void {
  describe(`a node that stalls one wallet's calls, on ${name}`, () => {
    let node: StallingNode;
    let h: Harness;

    beforeAll(async () => {
      const system = await sharedSystem();
      node = await startStallingNode(system.rpcUrl);
      // Each request on its own: holding one of A's calls holds no other caller's batch.
      h = await startService({ db: await open(), chain: { ...system, rpcUrl: node.url, batchRequests: false } });
    });
    afterAll(async () => {
      await h?.service.close();
      await node?.close();
    });

    async function pinUser() {
      const user = newUserId();
      const pin = pinOf("864209");
      const reg = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
      await h.service.fundWallet({ user_uuid: user, xotn: "100", wallet: "user" });
      const transfer = (to: string) =>
        h.service.transferToken(user, {
          ...pin,
          key_share_user: reg.key_share_user,
          from_address: reg.address,
          to_address: to,
          amount: "1",
          contract_address: h.service.addresses.xotn,
        });
      return { address: reg.address, transfer };
    }

    it("holds wallet A's PIN operation at each of its node calls in turn; wallet B's operations are signed, recorded and land meanwhile; A lands once released", async () => {
      const a = await pinUser();
      const b = await pinUser();
      const bundler = `"from":"${new Wallet(TEST_KEYS.bundlerKey).address.toLowerCase()}"`;
      const walletA = a.address.slice(2).toLowerCase();
      // A node call of A's request: it names wallet A and is not the write pipeline's (the bundler's).
      const callOfA = (request: RpcRequest) => {
        const params = JSON.stringify(request.params ?? []).toLowerCase();
        return !PIPELINE.has(request.method) && params.includes(walletA) && !params.includes(bundler);
      };
      const toA = Wallet.createRandom().address;
      const toB = Wallet.createRandom().address;
      const heldAt: string[] = [];
      for (let nth = 1; nth <= 20; nth++) {
        const hold = node.holdNth(nth, callOfA);
        let landedA = false;
        const operationA = a.transfer(toA).finally(() => {
          landedA = true;
        });
        const point = await Promise.race([hold.held, operationA.then(() => null)]);
        if (point === null) {
          // A's operation made fewer node calls than `nth`: every one of them was held once.
          hold.release();
          break;
        }
        heldAt.push(point);
        // While the node holds A's call, no transaction holds a wallet's nonce row and the database answers.
        expect(await within(walletNonceLocks(h.db), 5000, `the database, while the node held A's ${point}`)).toBe(0);
        const answerB = await within(b.transfer(toB), 30_000, `B's operation, while the node held A's ${point}`);
        expect(answerB.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(landedA, `A's operation waits for its ${point}`).toBe(false);
        hold.release();
        expect((await operationA).transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
      }
      // The calls before the PIN unlock: the wallet's nonces, its code and the simulation of the call.
      expect(heldAt).toEqual(expect.arrayContaining(["eth_call", "eth_getCode"]));
      expect(heldAt.length).toBeGreaterThanOrEqual(4);
      expect(await h.ctx.contracts.xotn.balanceOf(toB)).toBe(BigInt(heldAt.length));
      expect(await h.ctx.contracts.xotn.balanceOf(toA)).toBe(BigInt(heldAt.length + 1));
    });
  });
}
