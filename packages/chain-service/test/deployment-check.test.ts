import { randomBytes } from "node:crypto";
import { openDatabase } from "@slotgate/storage";
import { describe, expect, it } from "vitest";
import { type ChainServiceError, type ChainServiceWarning, createChainService } from "../src/index.js";
import { TEST_KEYS, deployTestSystem } from "./helpers/setup.js";

/** Start-up checks of a configured deployment: a misconfigured service refuses to start, naming what is wrong. */
describe("the configured deployment", () => {
  const start = async (overrides: object, warnings: ChainServiceWarning[] = []) => {
    const chain = await deployTestSystem();
    return createChainService({
      db: await openDatabase({}), // a database belongs to one deployment
      keyEncryptionKey: randomBytes(32),
      recoveryKey: randomBytes(32),
      chain: { ...chain, ...overrides },
      warn: (w) => warnings.push(w),
    }).catch((e: unknown) => e as ChainServiceError);
  };

  it("refuses a paymaster signer key that is not the paymaster's signer, and a missing contract", async () => {
    const wrongSigner = (await start({ paymasterSignerKey: TEST_KEYS.operatorKey })) as ChainServiceError;
    expect(wrongSigner.code).toBe("chain_unavailable");
    expect(wrongSigner.message).toContain("verifyingSigner");
    const chain = await deployTestSystem();
    const missing = (await start({ addresses: { ...chain.addresses, factory: `0x${"44".repeat(20)}` } })) as ChainServiceError;
    expect(missing.message).toContain("factory");
  });

  it("refuses a spend-recorder key that is not the exchange's spendRecorder, and an operator key that is neither its operator nor its owner", async () => {
    const wrongRecorder = (await start({ spendRecorderKey: TEST_KEYS.bundlerKey })) as ChainServiceError;
    expect([wrongRecorder.code, wrongRecorder.message]).toEqual(["chain_unavailable", "the spend-recorder key is not the exchange's spendRecorder"]);
    const wrongOperator = (await start({ operatorKey: TEST_KEYS.bundlerKey })) as ChainServiceError;
    expect(wrongOperator.message).toBe("the operator key is neither the exchange's operator nor its owner");
  });

  it("refuses a recovery key equal to the key-encryption key", async () => {
    const chain = await deployTestSystem();
    const key = randomBytes(32);
    const error = await createChainService({ db: await openDatabase({}), keyEncryptionKey: key, recoveryKey: key.toString("hex"), chain }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "invalid_request", message: "recoveryKey must differ from keyEncryptionKey" });
  });

  it("says when a development chain is in use, and not otherwise", async () => {
    const dev: ChainServiceWarning[] = [];
    const service = await start({}, dev);
    expect(dev.map((w) => w.code)).toContain("development_chain");
    await (service as { close(): Promise<void> }).close();
    const real: ChainServiceWarning[] = [];
    const production = await start({ development: false }, real);
    expect(real.map((w) => w.code)).not.toContain("development_chain");
    await (production as { close(): Promise<void> }).close();
  });
});
