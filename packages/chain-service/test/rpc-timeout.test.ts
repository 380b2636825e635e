import { readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainService } from "../src/index.js";
import { Wallet } from "ethers";
import { TEST_KEYS, newUserId, pinOf, sharedChain, sharedSystem, startService } from "./helpers/setup.js";

/**
 * Resolves once the kernel reports `pid` stopped (state T in /proc/<pid>/stat): the signal is sent at
 * once but takes effect when the process is next scheduled, so a request sent in between may be answered.
 */
async function stoppedProcess(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("T")) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} did not stop`);
}

// A node that accepts connections and never answers: every JSON-RPC request must give up on its own.
let silent: Server;
const sockets: Socket[] = [];
let url = "";
beforeAll(async () => {
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe("a chain that does not answer", () => {
  // Without the timeout this test would wait for the suite's own test timeout and fail.
  it("fails start-up with chain_unavailable once the request timeout passes, instead of waiting forever", async () => {
    const { addresses } = await sharedSystem();
    const error = await createChainService({
      db: await openDatabase({}),
      keyEncryptionKey: randomBytes(32),
      recoveryKey: randomBytes(32),
      chain: { kind: "rpc", rpcUrl: url, addresses, ...TEST_KEYS, requestTimeoutMs: 300 },
      warn: () => undefined,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "chain_unavailable" });
  });
});

describe("a node that stops answering while the service runs", () => {
  it("answers chain_unavailable for reads and for a purchase's checks (never a raw node error), and works again once the node does", async () => {
    const node = await sharedChain();
    const h = await startService({ chain: { ...(await sharedSystem()), requestTimeoutMs: 500 } });
    try {
      const clientId = `sg_pause_${randomBytes(4).toString("hex")}`;
      const cuid = `pause-${randomBytes(4).toString("hex")}`;
      await h.service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
      const user = newUserId();
      await h.service.registerPin({ user_uuid: user, ...pinOf("909090") }); // the wallet records, nothing on chain
      const slot = (await h.service.contentAddressFor(user))!;
      process.kill(node.pid, "SIGSTOP");
      await stoppedProcess(node.pid);
      try {
        await expect(h.service.balanceOf(slot, cuid)).rejects.toMatchObject({ code: "chain_unavailable" });
        await expect(h.service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid })).rejects.toMatchObject({
          code: "chain_unavailable",
        });
      } finally {
        process.kill(node.pid, "SIGCONT");
      }
      expect(await h.service.balanceOf(slot, cuid)).toMatchObject({ balance: "0", used_balances: "0" });
    } finally {
      await h.service.close();
    }
  });
});
