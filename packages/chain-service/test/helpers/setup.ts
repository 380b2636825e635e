import { createHash, randomBytes } from "node:crypto";
import { deploy } from "@slotgate/contracts";
import { type Database, openDatabase } from "@slotgate/storage";
import { JsonRpcProvider, Wallet, parseEther } from "ethers";
import { type PendingWriteResponse, isPendingWrite } from "@slotgate/protocol";
import { inject } from "vitest";
import { type AnvilProcess, type ChainService, type ChainServiceConfig, ChainServiceError, type RpcChainConfig, developmentKey } from "../../src/index.js";
import { createContext } from "../../src/context.js";
import type { ServiceContext } from "../../src/service-context.js";
import { serviceOver } from "../../src/surface.js";
import type { WriteIdentity } from "../../src/writes/engine.js";
import { sharedCaller } from "./caller.js";

/** A PIN as a client sends it: pin_hash = SHA-256(pin ‖ salt), salt 64 hex. */
export function pinOf(pin: string, salt = randomBytes(32).toString("hex")) {
  return {
    pin_hash: createHash("sha256")
      .update(pin + salt)
      .digest("hex"),
    pin_salt: salt,
  };
}

let shared: Promise<Database> | undefined;

/** The suite's one in-memory PGlite database (its WASM start-up dominates on a busy machine). */
export function sharedDatabase(): Promise<Database> {
  shared ??= openDatabase({});
  return shared;
}

/** A service whose write methods answer what landed: a test that sees a pending write (202) fails. */
export type LandedService = {
  [K in keyof ChainService]: ChainService[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<Exclude<R, PendingWriteResponse>>
    : ChainService[K];
};

/** Wraps a service so that every answer is checked not to be a pending write. */
export function landed(service: ChainService): LandedService {
  return new Proxy(service, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "lookupWrite") return value; // a lookup may answer "pending"
      return async (...args: unknown[]) => {
        const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (isPendingWrite(answer)) throw new Error(`${String(name)} answered a pending write (${answer.write_id}): it did not land within the wait`);
        return answer;
      };
    },
  }) as unknown as LandedService;
}

export interface Harness {
  service: LandedService;
  /** The context behind the service (its chain, contracts, bundler), for tests that look inside. */
  ctx: ServiceContext;
  db: Database;
}

/** The suite's one Anvil node (in memory, any free port), started and stopped by `test/global-setup.ts`. */
export async function sharedChain(): Promise<Pick<AnvilProcess, "rpcUrl" | "pid">> {
  return inject("sharedAnvil");
}

/** The development keys the services of this suite use (operator, spend recorder, paymaster signer, bundler). */
export const TEST_KEYS = {
  operatorKey: developmentKey(0),
  spendRecorderKey: developmentKey(3),
  paymasterSignerKey: developmentKey(1),
  bundlerKey: developmentKey(2),
};

/** A fresh key-encryption key and recovery key, as a service's configuration holds them. */
export function freshKeys(): { keyEncryptionKey: string; recoveryKey: string } {
  return { keyEncryptionKey: randomBytes(32).toString("hex"), recoveryKey: randomBytes(32).toString("hex") };
}

/**
 * A fresh deployment of the whole system with the test keys, on the suite's chain (each test file gets
 * its own contracts) or on the node at `rpcUrl` (a test with a chain of its own).
 */
export async function deployTestSystem(rpcUrl?: string): Promise<RpcChainConfig> {
  rpcUrl ??= (await sharedChain()).rpcUrl;
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
  try {
    const deployer = new Wallet(TEST_KEYS.operatorKey, provider);
    const result = await deploy(deployer, {
      paymasterSigner: new Wallet(TEST_KEYS.paymasterSignerKey).address,
      spendRecorder: new Wallet(TEST_KEYS.spendRecorderKey).address,
      paymasterDeposit: parseEther("100"),
    });
    const { xotn, exchange, entryPoint, factory, paymaster } = result;
    return { kind: "rpc", rpcUrl, addresses: { xotn, exchange, entryPoint, factory, paymaster }, ...TEST_KEYS, development: true };
  } finally {
    provider.destroy();
  }
}

let system: Promise<RpcChainConfig> | undefined;

/** The suite's one deployment (a database belongs to one deployment; files use fresh user ids and cuids). */
export function sharedSystem(): Promise<RpcChainConfig> {
  system ??= deployTestSystem();
  return system;
}

/**
 * A service on the suite's Anvil chain and deployment with the shared in-memory PGlite database, trusting
 * the suite's caller key ({@link sharedCaller}). A test
 * that needs its own deployment passes `chain` and its own `db` (a database belongs to one deployment).
 */
export async function startService(overrides: Partial<ChainServiceConfig> = {}, wrapDb?: (db: Database) => Database): Promise<Harness> {
  const db = overrides.db ?? (await sharedDatabase());
  const ctx = await createContext({
    ...freshKeys(),
    warn: () => undefined,
    callerKeys: (await sharedCaller()).keys,
    ...overrides,
    chain: overrides.chain ?? (await sharedSystem()),
    db: wrapDb ? wrapDb(db) : db,
  });
  return { service: landed(serviceOver(ctx)), ctx, db };
}

let nextUser = Math.floor(Math.random() * 1e9);
/** A fresh user id. */
export const newUserId = () => ++nextUser;

let nextRequest = 0;
/** A write identity for a test that calls a feature module directly (no idempotency key unless given). */
export function testIdentity(scope: string, idempotencyKey: string | null = null): WriteIdentity {
  return { scope, idempotencyKey, requestHash: `test-request-${process.pid}-${++nextRequest}` };
}

/** The outcome of a call as a string: "ok", the `ChainServiceError` code, or `unexpected …` for any other error. */
export const codeOf = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => "ok",
    (e: unknown) => (e instanceof ChainServiceError ? e.code : `unexpected ${String(e)}`),
  );

/** The answer of a write that landed (a pending write fails the test). */
export function landedAnswer<T>(answer: T | PendingWriteResponse): T {
  if (isPendingWrite(answer)) throw new Error(`the write ${answer.write_id} did not land within the wait`);
  return answer;
}
