import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/index.js";

const KEY = `0x${"ab".repeat(32)}`;
const ADDR = `0x${"12".repeat(20)}`;
const PRODUCTION = {
  RPC_URL: "https://rpc.example/v1/secret-token",
  CHAIN_KEK: "cd".repeat(32),
  CHAIN_RECOVERY_KEY: "ef".repeat(32),
  XOTN_ADDRESS: ADDR,
  EXCHANGE_ADDRESS: ADDR,
  ENTRYPOINT_ADDRESS: ADDR,
  FACTORY_ADDRESS: ADDR,
  PAYMASTER_ADDRESS: ADDR,
  OPERATOR_KEY: KEY,
  SPEND_RECORDER_KEY: `0x${"bc".repeat(32)}`,
  PAYMASTER_SIGNER_KEY: KEY,
  BUNDLER_KEY: KEY,
};

function problem(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("loadConfig accepted the environment");
}

describe("chain configuration", () => {
  it("defaults to the in-process chain; RPC_URL selects rpc; CHAIN=off; CHAIN_SERVICE_URL selects the gRPC chain service", () => {
    expect(loadConfig({}).chain.mode).toBe("anvil");
    expect(loadConfig({}).chain.anvil).toEqual({ port: 8545, blockTimeSeconds: null, binary: null });
    expect(loadConfig({ ANVIL_PORT: "0", ANVIL_BLOCK_TIME: "2" }).chain.anvil).toMatchObject({ port: 0, blockTimeSeconds: 2 });
    expect(loadConfig({}).chain.rpcTimeoutMs).toBe(30_000);
    expect(loadConfig({ RPC_TIMEOUT_MS: "5000" }).chain.rpcTimeoutMs).toBe(5000);
    expect(loadConfig(PRODUCTION).chain.mode).toBe("rpc");
    expect(loadConfig({ CHAIN: "off" }).chain.mode).toBe("off");
    expect(loadConfig({ CHAIN_SERVICE_URL: "127.0.0.1:50051" }).chain).toMatchObject({ mode: "remote", serviceUrl: "127.0.0.1:50051" });
  });

  it("a bad value stops start-up naming the variable, never echoing a secret", () => {
    expect(problem({ CHAIN: "maybe" }).variable).toBe("CHAIN");
    expect(problem({ CHAIN: "rpc" }).variable).toBe("RPC_URL");
    expect(problem({ ...PRODUCTION, CHAIN: "anvil" }).variable).toBe("CHAIN");
    expect(problem({ CHAIN: "in-process" }).message).toContain("replaced by anvil");
    expect(problem({ ANVIL_BLOCK_TIME: "0" }).variable).toBe("ANVIL_BLOCK_TIME");
    expect(problem({ RPC_TIMEOUT_MS: "10" }).variable).toBe("RPC_TIMEOUT_MS");
    expect(problem({ CHAIN_SERVICE_URL: "http://x" }).variable).toBe("CHAIN_SERVICE_URL");
    expect(problem({ CHAIN: "off", CHAIN_SERVICE_URL: "127.0.0.1:1" }).variable).toBe("CHAIN_SERVICE_URL");
    const missing = problem({ ...PRODUCTION, OPERATOR_KEY: "" });
    expect(missing.variable).toBe("OPERATOR_KEY");
    const badKey = problem({ ...PRODUCTION, OPERATOR_KEY: "0xnot-a-key-secret" });
    expect(badKey.variable).toBe("OPERATOR_KEY");
    expect(badKey.message).not.toContain("not-a-key-secret");
    expect(problem({ ...PRODUCTION, CHAIN_KEK: "short" }).variable).toBe("CHAIN_KEK");
    expect(problem({ ...PRODUCTION, CHAIN_RECOVERY_KEY: "" }).variable).toBe("CHAIN_RECOVERY_KEY");
    expect(problem({ ...PRODUCTION, CHAIN_RECOVERY_KEY: "short" }).variable).toBe("CHAIN_RECOVERY_KEY");
    const sameKey = problem({ ...PRODUCTION, CHAIN_RECOVERY_KEY: PRODUCTION.CHAIN_KEK.toUpperCase() });
    expect([sameKey.variable, sameKey.message.includes(PRODUCTION.CHAIN_KEK)]).toEqual(["CHAIN_RECOVERY_KEY", false]);
    expect(problem({ ...PRODUCTION, SPEND_RECORDER_KEY: "" }).variable).toBe("SPEND_RECORDER_KEY");
    expect(problem({ ...PRODUCTION, SPONSOR_MAX_OPERATION_GAS: "12" }).variable).toBe("SPONSOR_MAX_OPERATION_GAS");
    expect(problem({ ...PRODUCTION, SPONSOR_ERC20_ALLOWLIST: `${ADDR},nope` }).variable).toBe("SPONSOR_ERC20_ALLOWLIST");
    expect(problem({ ...PRODUCTION, RPC_URL: "ftp://x" }).message).not.toContain("ftp://x");
  });

  it("reads the write wait and the sponsorship budgets (wei of any size; 0 turns a budget off)", () => {
    expect(loadConfig({}).chain.service).not.toHaveProperty("writeWaitMs");
    expect(loadConfig({}).chain.service).not.toHaveProperty("sponsorship");
    const service = loadConfig({ CHAIN_WRITE_WAIT_MS: "2500", SPONSOR_USER_WEI_PER_DAY: "0", SPONSOR_CUID_WEI_PER_DAY: "123456789012345678901234567890" }).chain
      .service;
    expect(service?.writeWaitMs).toBe(2500);
    expect(service?.sponsorship).toEqual({ userWeiPerDay: 0n, cuidWeiPerDay: 123456789012345678901234567890n });
    expect(problem({ CHAIN_WRITE_WAIT_MS: "0" }).variable).toBe("CHAIN_WRITE_WAIT_MS");
    expect(problem({ SPONSOR_USER_WEI_PER_DAY: "1.5" }).variable).toBe("SPONSOR_USER_WEI_PER_DAY");
    expect(problem({ SPONSOR_CUID_WEI_PER_DAY: "-1" }).variable).toBe("SPONSOR_CUID_WEI_PER_DAY");
  });

  it("reads how long settled chain writes are kept: one day by default, never less", () => {
    expect(loadConfig({}).chain.service?.writeRetentionSeconds).toBe(86_400);
    expect(loadConfig({ CHAIN_WRITE_RETENTION_SECONDS: "604800" }).chain.service?.writeRetentionSeconds).toBe(604_800);
    for (const bad of ["3600", "86399", "1.5", "forever"])
      expect(problem({ CHAIN_WRITE_RETENTION_SECONDS: bad }).variable).toBe("CHAIN_WRITE_RETENTION_SECONDS");
  });

  it("reads the recovery key, the spend-recorder key and the sponsorship rules", () => {
    const service = loadConfig({ ...PRODUCTION, SPONSOR_MAX_OPERATION_GAS: "2000000", SPONSOR_ERC20_ALLOWLIST: ` ${ADDR} , ${ADDR.replace("12", "34")} ` })
      .chain.service;
    expect(service).toMatchObject({
      keyEncryptionKey: PRODUCTION.CHAIN_KEK,
      recoveryKey: PRODUCTION.CHAIN_RECOVERY_KEY,
      chain: { spendRecorderKey: PRODUCTION.SPEND_RECORDER_KEY, operatorKey: KEY },
      sponsorship: { maxOperationGas: 2_000_000n, erc20AllowList: [ADDR, ADDR.replace("12", "34")] },
    });
    expect(loadConfig(PRODUCTION).chain.service).not.toHaveProperty("sponsorship");
    // Development defaults: both keys generated in the data directory.
    expect(loadConfig({}).chain.service).toMatchObject({ keyEncryptionKey: null, recoveryKey: null });
  });

  it("PostgreSQL without RPC_URL needs an explicit choice of chain", () => {
    expect(problem({ DATABASE_URL: "postgres://db/slotgate" }).variable).toBe("CHAIN");
    expect(loadConfig({ DATABASE_URL: "postgres://db/slotgate", CHAIN: "anvil" }).chain.mode).toBe("anvil");
    expect(loadConfig({ DATABASE_URL: "postgres://db/slotgate", CHAIN: "off" }).chain.mode).toBe("off");
  });
});
