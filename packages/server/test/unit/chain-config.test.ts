import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/index.js";

const KEY = `0x${"ab".repeat(32)}`;
const ADDR = `0x${"12".repeat(20)}`;
const PRODUCTION = {
  RPC_URL: "https://rpc.example/v1/secret-token",
  CHAIN_KEK: "cd".repeat(32),
  XOTN_ADDRESS: ADDR,
  EXCHANGE_ADDRESS: ADDR,
  ENTRYPOINT_ADDRESS: ADDR,
  FACTORY_ADDRESS: ADDR,
  PAYMASTER_ADDRESS: ADDR,
  OPERATOR_KEY: KEY,
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
    expect(loadConfig({}).chain.mode).toBe("in-process");
    expect(loadConfig(PRODUCTION).chain.mode).toBe("rpc");
    expect(loadConfig({ CHAIN: "off" }).chain.mode).toBe("off");
    expect(loadConfig({ CHAIN_SERVICE_URL: "127.0.0.1:50051" }).chain).toMatchObject({ mode: "remote", serviceUrl: "127.0.0.1:50051" });
  });

  it("a bad value stops start-up naming the variable, never echoing a secret", () => {
    expect(problem({ CHAIN: "maybe" }).variable).toBe("CHAIN");
    expect(problem({ CHAIN: "rpc" }).variable).toBe("RPC_URL");
    expect(problem({ ...PRODUCTION, CHAIN: "in-process" }).variable).toBe("CHAIN");
    expect(problem({ CHAIN_SERVICE_URL: "http://x" }).variable).toBe("CHAIN_SERVICE_URL");
    expect(problem({ CHAIN: "off", CHAIN_SERVICE_URL: "127.0.0.1:1" }).variable).toBe("CHAIN_SERVICE_URL");
    const missing = problem({ ...PRODUCTION, OPERATOR_KEY: "" });
    expect(missing.variable).toBe("OPERATOR_KEY");
    const badKey = problem({ ...PRODUCTION, OPERATOR_KEY: "0xnot-a-key-secret" });
    expect(badKey.variable).toBe("OPERATOR_KEY");
    expect(badKey.message).not.toContain("not-a-key-secret");
    expect(problem({ ...PRODUCTION, CHAIN_KEK: "short" }).variable).toBe("CHAIN_KEK");
    expect(problem({ ...PRODUCTION, RPC_URL: "ftp://x" }).message).not.toContain("ftp://x");
  });

  it("PostgreSQL without RPC_URL needs an explicit choice (the in-process chain resets its records at start)", () => {
    expect(problem({ DATABASE_URL: "postgres://db/slotgate" }).variable).toBe("CHAIN");
    expect(loadConfig({ DATABASE_URL: "postgres://db/slotgate", CHAIN: "in-process" }).chain.mode).toBe("in-process");
    expect(loadConfig({ DATABASE_URL: "postgres://db/slotgate", CHAIN: "off" }).chain.mode).toBe("off");
  });
});
