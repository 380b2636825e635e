import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnvilProcess, startAnvil } from "@slotgate/chain-service";
import type { DeployResult } from "@slotgate/contracts";
import { JsonRpcProvider, Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/index.js";
import { newUser, pinOf, postBasic } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { deployOnNode } from "../support/rpc-chain.js";

/**
 * Production configuration: the server reaches a JSON-RPC node (an Anvil node the test starts, as an
 * operator's node would be) with a deployment and keys given in the environment, exactly as an
 * operator configures it.
 */
let node: AnvilProcess;
let rpcUrl: string;
let deployed: DeployResult;
let server: TestServer;
let env: Record<string, string>;
const dataDir = mkdtempSync(join(tmpdir(), "slotgate-rpc-cli-"));

beforeAll(async () => {
  node = await startAnvil({ port: 0 });
  rpcUrl = node.rpcUrl;
  ({ deployed, env } = await deployOnNode(rpcUrl));
  server = await startTestServer({ ...env, CHAIN: "" });
});
afterAll(async () => {
  await server?.close();
  await node?.stop();
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
    const res = await call(server.url, "POST", "/v1/token/transfer", {
      token: user.token,
      body: {
        from_address: data.address,
        to_address: to,
        amount: "20",
        contract_address: deployed.xotn,
        pin_hash: pin.pin_hash,
        key_share_user: data.key_share_user,
      },
    });
    expect(res.status).toBe(200);
    const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
    // The operator's own keys (not the node's prefunded accounts), funded as an operator funds them.
    const receipt = await provider.getTransactionReceipt(String(res.json["transaction_hash"]));
    provider.destroy();
    expect(receipt?.status).toBe(1);
  });

  it("the operator CLI enables release with the same environment", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const cuid = `rpc-${Date.now()}`;
    expect(
      (
        await postBasic(server, client, "/v1/development-api/init_permission_provider", {
          client_id: client.client_id,
          cuid,
          release_per: 10,
          owner_addr: `0x${"ef".repeat(20)}`,
        })
      ).status,
    ).toBe(200);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ["release", "enable", "--cuid", cuid],
      { ...env, SLOTGATE_DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    expect(code, err.join("\n")).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ success: true, cuid, enabled: true });
    const fund = await runCli(
      ["dev", "fund-slot", "--client-id", client.client_id, "--cuid", cuid, "--user-id", "5", "--xotn", "1"],
      { ...env, SLOTGATE_DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    expect(fund, "the faucet refuses a real chain").toBe(1);
    expect(JSON.parse(err.at(-1)!)).toMatchObject({ error: "service_unavailable" });
  });
});
