import { describe, expect, it } from "vitest";
import { ChainServiceError, type SqlDatabase, chainServiceConfigFromEnv } from "../src/index.js";

const db = {} as SqlDatabase;
const key = `0x${"ab".repeat(32)}`;
const addr = `0x${"12".repeat(20)}`;
const production = {
  RPC_URL: "https://user:secret@rpc.example/v1",
  CHAIN_KEK: "cd".repeat(32),
  XOTN_ADDRESS: addr,
  EXCHANGE_ADDRESS: addr,
  ENTRYPOINT_ADDRESS: addr,
  FACTORY_ADDRESS: addr,
  PAYMASTER_ADDRESS: addr,
  OPERATOR_KEY: key,
  PAYMASTER_SIGNER_KEY: key,
  BUNDLER_KEY: key,
};

const errorOf = (env: Record<string, string>) => {
  try {
    chainServiceConfigFromEnv(env, { db, warn: () => undefined });
    return undefined;
  } catch (error) {
    return error as ChainServiceError;
  }
};

describe("configuration from the environment", () => {
  it("defaults to the in-process chain and warns about the random key-encryption key", () => {
    const warnings: string[] = [];
    const config = chainServiceConfigFromEnv({}, { db, warn: (m) => warnings.push(m) });
    expect(config.chain).toEqual({ kind: "in-process" });
    expect(config.keyEncryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(warnings.join()).toContain("CHAIN_KEK");
  });

  it("reads a production configuration", () => {
    const config = chainServiceConfigFromEnv({ ...production, BUNDLER_URL: "https://bundler.example", PIN_MAX_FAILURES: "4" }, { db });
    expect(config.chain).toMatchObject({ kind: "rpc", addresses: { xotn: addr }, operatorKey: key });
    expect(config.bundler).toEqual({ kind: "external", url: "https://bundler.example" });
    expect(config.pinLockout).toEqual({ maxFailures: 4 });
  });

  it("names the bad variable and never echoes a secret", () => {
    for (const [variable, value] of [
      ["OPERATOR_KEY", "0x1234"],
      ["FACTORY_ADDRESS", "nope"],
      ["CHAIN_KEK", "short"],
      ["RPC_URL", "ftp://x"],
      ["PIN_LOCK_SECONDS", "-3"],
    ] as const) {
      const error = errorOf({ ...production, [variable]: value });
      expect(error).toBeInstanceOf(ChainServiceError);
      expect(error?.message).toContain(variable);
      expect(error?.message).not.toContain(value);
      expect(error?.message).not.toContain("secret");
    }
    expect(errorOf({ RPC_URL: production.RPC_URL, CHAIN_KEK: production.CHAIN_KEK })?.message).toContain("XOTN_ADDRESS");
  });
});
