import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { developmentKey } from "@slotgate/chain-service";
import { Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/platform/config/config.js";
import { ProductionRefusal, environmentOf, productionProblems, refuseDevelopmentDefaults } from "../../src/platform/config/production.js";
import { generateSigningKey, runCli, startServer } from "../../src/index.js";

/** Production mode (docs/decisions/production-mode.md): every development default is refused by name. */
const key = () => new Wallet(`0x${randomBytes(32).toString("hex")}`).privateKey;
const address = () => new Wallet(key()).address;
let pemDir: string;
let server: Record<string, string>;

beforeAll(async () => {
  pemDir = mkdtempSync(join(tmpdir(), "sg-prod-"));
  // The files only need a PEM block here: nothing listens in these tests.
  for (const name of ["cert.pem", "key.pem", "ca.pem"]) writeFileSync(join(pemDir, name), "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n");
  server = {
    SLOTGATE_ENV: "production",
    DATABASE_URL: "postgres://slotgate@db.internal:5432/slotgate",
    SIGNING_KEYS: JSON.stringify([await generateSigningKey()]),
    CLIENT_SECRET_PEPPER: "p".repeat(40),
    SMTP_URL: "smtp://mail.internal:25",
    PUBLIC_URL: "https://login.slotgate.example",
    RPC_URL: "https://rpc.chain.example",
    XOTN_ADDRESS: address(),
    EXCHANGE_ADDRESS: address(),
    ENTRYPOINT_ADDRESS: address(),
    FACTORY_ADDRESS: address(),
    PAYMASTER_ADDRESS: address(),
    OPERATOR_KEY: key(),
    SPEND_RECORDER_KEY: key(),
    PAYMASTER_SIGNER_KEY: key(),
    BUNDLER_KEY: key(),
    CHAIN_KEK: randomBytes(32).toString("hex"),
    CHAIN_RECOVERY_KEY: randomBytes(32).toString("hex"),
  };
});
afterAll(() => rmSync(pemDir, { recursive: true, force: true }));

const without = (env: Record<string, string>, ...names: string[]) => Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
const variables = (env: Record<string, string>, role: "server" | "chain-service" = "server") =>
  productionProblems(loadConfig(env), role).map((p) => p.variable);

describe("the environment", () => {
  it("is SLOTGATE_ENV, else production when NODE_ENV=production, else development", () => {
    expect(environmentOf({})).toBe("development");
    expect(environmentOf({ NODE_ENV: "production" })).toBe("production");
    expect(environmentOf({ NODE_ENV: "test" })).toBe("development");
    expect(environmentOf({ SLOTGATE_ENV: "production" })).toBe("production");
    expect(environmentOf({ SLOTGATE_ENV: "development", NODE_ENV: "production" })).toBe("development");
    expect(() => environmentOf({ SLOTGATE_ENV: "prod" })).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: "production" }).environment).toBe("production");
  });
});

describe("production refusals", () => {
  it("a configured production server has none", () => {
    expect(variables(server)).toEqual([]);
  });

  it.each([
    ["generated signing keys", (e: Record<string, string>) => without(e, "SIGNING_KEYS"), "SIGNING_KEYS"],
    ["a generated pepper", (e: Record<string, string>) => without(e, "CLIENT_SECRET_PEPPER"), "CLIENT_SECRET_PEPPER"],
    ["the embedded database", (e: Record<string, string>) => ({ ...without(e, "DATABASE_URL", "RPC_URL"), RPC_URL: e["RPC_URL"]! }), "DATABASE_URL"],
    ["the development mailbox", (e: Record<string, string>) => without(e, "SMTP_URL"), "SMTP_URL"],
    ["the demo seed", (e: Record<string, string>) => ({ ...e, SLOTGATE_SEED_DEMO: "on" }), "SLOTGATE_SEED_DEMO"],
    ["rate limits off", (e: Record<string, string>) => ({ ...e, RATE_LIMIT: "off" }), "RATE_LIMIT"],
    ["no public URL", (e: Record<string, string>) => without(e, "PUBLIC_URL"), "PUBLIC_URL"],
    ["an http public URL off loopback", (e: Record<string, string>) => ({ ...e, PUBLIC_URL: "http://login.slotgate.example" }), "PUBLIC_URL"],
    ["the development chain", (e: Record<string, string>) => ({ ...without(e, "RPC_URL"), CHAIN: "anvil" }), "CHAIN"],
    ["a well-known operator key", (e: Record<string, string>) => ({ ...e, OPERATOR_KEY: developmentKey(0) }), "OPERATOR_KEY"],
    ["a well-known bundler key", (e: Record<string, string>) => ({ ...e, BUNDLER_KEY: developmentKey(2) }), "BUNDLER_KEY"],
    ["a well-known paymaster signer", (e: Record<string, string>) => ({ ...e, PAYMASTER_SIGNER_KEY: developmentKey(1) }), "PAYMASTER_SIGNER_KEY"],
    ["a well-known spend recorder", (e: Record<string, string>) => ({ ...e, SPEND_RECORDER_KEY: developmentKey(3) }), "SPEND_RECORDER_KEY"],
    [
      "a plain-text chain-service link",
      (e: Record<string, string>) => ({ ...without(e, "RPC_URL"), CHAIN_SERVICE_URL: "chain.internal:50051", CHAIN_SERVICE_TOKEN: "t".repeat(40) }),
      "CHAIN_SERVICE_TLS_CA",
    ],
    [
      "an unauthenticated chain-service link",
      (e: Record<string, string>) => ({ ...without(e, "RPC_URL"), CHAIN_SERVICE_URL: "chain.internal:50051", CHAIN_SERVICE_TLS_CA: join(pemDir, "ca.pem") }),
      "CHAIN_SERVICE_TOKEN",
    ],
  ])("refuses %s, naming the variable", (_name, change, variable) => {
    expect(variables(change(server))).toEqual([variable]);
  });

  it("the development chain's generated keys: CHAIN_KEK and CHAIN_RECOVERY_KEY are named with it", () => {
    expect(variables({ ...without(server, "RPC_URL", "CHAIN_KEK", "CHAIN_RECOVERY_KEY"), CHAIN: "anvil" })).toEqual([
      "CHAIN",
      "CHAIN_KEK",
      "CHAIN_RECOVERY_KEY",
    ]);
  });

  it("a remote chain-service link with TLS and a token, or a client certificate, is accepted", () => {
    const remote = { ...without(server, "RPC_URL"), CHAIN_SERVICE_URL: "chain.internal:50051", CHAIN_SERVICE_TLS_CA: join(pemDir, "ca.pem") };
    expect(variables({ ...remote, CHAIN_SERVICE_TOKEN: "t".repeat(40) })).toEqual([]);
    expect(variables({ ...remote, CHAIN_SERVICE_TLS_CLIENT_CERT: join(pemDir, "cert.pem"), CHAIN_SERVICE_TLS_CLIENT_KEY: join(pemDir, "key.pem") })).toEqual(
      [],
    );
  });

  it("the chain-service process: TLS and a caller credential (token or client CA), not the server's variables", () => {
    const chain = { ...without(server, "SIGNING_KEYS", "CLIENT_SECRET_PEPPER", "SMTP_URL", "PUBLIC_URL"), CHAIN_SERVICE_HOST: "0.0.0.0" };
    const tls = { CHAIN_SERVICE_TLS_CERT: join(pemDir, "cert.pem"), CHAIN_SERVICE_TLS_KEY: join(pemDir, "key.pem") };
    expect(variables(chain, "chain-service")).toEqual(["CHAIN_SERVICE_TLS_CERT", "CHAIN_SERVICE_TOKEN"]);
    expect(variables({ ...chain, ...tls, CHAIN_SERVICE_TOKEN: "t".repeat(40) }, "chain-service")).toEqual([]);
    expect(variables({ ...chain, ...tls, CHAIN_SERVICE_TLS_CLIENT_CA: join(pemDir, "ca.pem") }, "chain-service")).toEqual([]);
  });

  it("development mode refuses nothing; production lists every problem in one error", () => {
    expect(() => refuseDevelopmentDefaults(loadConfig({}), "server")).not.toThrow();
    const error = (() => {
      try {
        refuseDevelopmentDefaults(loadConfig({ SLOTGATE_ENV: "production" }), "server");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ProductionRefusal);
    expect((error as ProductionRefusal).problems.map((p) => p.variable)).toEqual([
      "DATABASE_URL",
      "SIGNING_KEYS",
      "CLIENT_SECRET_PEPPER",
      "SMTP_URL",
      "PUBLIC_URL",
      "CHAIN",
      "CHAIN_KEK",
      "CHAIN_RECOVERY_KEY",
    ]);
    for (const variable of ["DATABASE_URL", "SIGNING_KEYS", "CHAIN_KEK"]) expect((error as Error).message).toContain(`  - ${variable} `);
  });
});

describe("start-up", () => {
  it("startServer refuses before it opens the database (which does not exist here)", async () => {
    await expect(startServer(loadConfig({ ...server, OPERATOR_KEY: developmentKey(0) }))).rejects.toThrow(/OPERATOR_KEY is a well-known development key/);
  });

  it("the CLI's start and chain-service commands exit 2 naming each variable; nothing is printed of the values", async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (line: string) => err.push(line) };
    const env = { ...server, SIGNING_KEYS: "", OPERATOR_KEY: developmentKey(0), LOG_LEVEL: "silent" };
    expect(await runCli(["start"], env, io)).toBe(2);
    expect(err.join("\n")).toMatch(/SIGNING_KEYS is required[\s\S]*OPERATOR_KEY is a well-known/);
    expect(err.join("\n")).not.toContain(developmentKey(0).slice(2));
    err.length = 0;
    expect(await runCli(["chain-service"], { ...env, CHAIN_CALLER_JWKS_URL: "https://login.slotgate.example/.well-known/jwks.json" }, io)).toBe(2);
    expect(err.join("\n")).toMatch(/CHAIN_SERVICE_TLS_CERT is required[\s\S]*CHAIN_SERVICE_TOKEN is required/);
  });
});
