import fc from "fast-check";
import { AbiCoder, Interface, Wallet, getAddress, id, toBeHex } from "ethers";
import { describe, expect, it } from "vitest";
import {
  C_SALT,
  ContractsError,
  TRANSACTION_GAS_CAP,
  W_SALT,
  buildUserOperation,
  computeWalletAddress,
  contentTokenExchangeAbi,
  decodeContractError,
  encodeExecute,
  encodeExecuteBatch,
  encodeInitCode,
  encodePaymasterAndData,
  entryPointAbi,
  handleOpsGasLimit,
  handleOpsTransaction,
  slotgateAccountAbi,
  slotgateAccountFactoryAbi,
  userOperationToRpc,
} from "../src/index.js";

const FACTORY = getAddress("0x00000000000000000000000000000000000fac70");
const OWNER = getAddress("0x000000000000000000000000000000000000beef");
const TARGET = getAddress("0x0000000000000000000000000000000000001234");

describe("pure helpers (no chain)", () => {
  it("uses distinct, documented salts", () => {
    expect(W_SALT).toBe(0n);
    expect(C_SALT).toBe(1n);
  });

  it("computes a deterministic wallet address that depends on factory, owner and salt (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (bytes, salt) => {
        const owner = getAddress(toBeHex(BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`), 20));
        const a = computeWalletAddress(FACTORY, owner, salt);
        expect(computeWalletAddress(FACTORY, owner, salt)).toBe(a);
        expect(computeWalletAddress(FACTORY, owner, salt === 0n ? 1n : salt - 1n)).not.toBe(a);
        expect(getAddress(a)).toBe(a);
      }),
      { numRuns: 50 },
    );
  });

  it("rejects bad addresses and salts with invalid_argument", () => {
    expect(() => computeWalletAddress("0x12", OWNER, W_SALT)).toThrow(ContractsError);
    expect(() => computeWalletAddress(FACTORY, "nope", W_SALT)).toThrow(/owner is not an address/);
    expect(() => computeWalletAddress(FACTORY, OWNER, -1n)).toThrow(/salt/);
    expect(() => computeWalletAddress(FACTORY, OWNER, 2n ** 256n)).toThrow(/salt/);
    try {
      computeWalletAddress(FACTORY, OWNER, -1n);
    } catch (error) {
      expect((error as ContractsError).code).toBe("invalid_argument");
    }
  });

  it("encodes initCode as factory ++ createAccount(owner, salt)", () => {
    const initCode = encodeInitCode(FACTORY, OWNER, C_SALT);
    expect(initCode.slice(0, 42)).toBe(FACTORY.toLowerCase());
    const call = new Interface(slotgateAccountFactoryAbi).decodeFunctionData("createAccount", `0x${initCode.slice(42)}`);
    expect([call[0], call[1]]).toEqual([OWNER, C_SALT]);
  });

  it("encodes execute and executeBatch and validates the calls", () => {
    const account = new Interface(slotgateAccountAbi);
    const single = account.decodeFunctionData("execute", encodeExecute({ to: TARGET, value: 5n, data: "0xabcd" }));
    expect([single[0], single[1], single[2]]).toEqual([TARGET, 5n, "0xabcd"]);
    const batch = account.decodeFunctionData("executeBatch", encodeExecuteBatch([{ to: TARGET }, { to: OWNER, data: "0x01" }]));
    expect([...batch[0]]).toEqual([TARGET, OWNER]);
    expect([...batch[1]]).toEqual(["0x", "0x01"]);
    expect(() => encodeExecuteBatch([])).toThrow(ContractsError);
    expect(() => encodeExecuteBatch([{ to: TARGET, value: 1n }])).toThrow(/value/);
    expect(() => encodeExecute({ to: TARGET, data: "xyz" })).toThrow(/hex/);
    expect(() => encodeExecute({ to: TARGET, data: "0xabc" })).toThrow(/hex/);
  });

  it("builds an operation with the documented defaults", () => {
    const deploying = buildUserOperation({ sender: OWNER, nonce: 0n, initCode: "0x12", callData: "0x", maxFeePerGas: 7n });
    expect(deploying).toMatchObject({
      callGasLimit: 500_000n,
      verificationGasLimit: 1_000_000n,
      preVerificationGas: 60_000n,
      maxPriorityFeePerGas: 7n,
      paymasterAndData: "0x",
      signature: "0x",
    });
    const later = buildUserOperation({ sender: OWNER, nonce: 1n, callData: "0x", maxFeePerGas: 7n, gas: { callGasLimit: 1n } });
    expect([later.initCode, later.verificationGasLimit, later.callGasLimit]).toEqual(["0x", 250_000n, 1n]);
    expect(() => buildUserOperation({ sender: OWNER, nonce: -1n, callData: "0x", maxFeePerGas: 1n })).toThrow(/nonce/);
    expect(() => buildUserOperation({ sender: "x", nonce: 0n, callData: "0x", maxFeePerGas: 1n })).toThrow(/sender/);
  });

  it("lays out paymasterAndData as address ++ abi.encode(validUntil, validAfter) ++ signature", () => {
    const signature = `0x${"cd".repeat(65)}`;
    const data = encodePaymasterAndData(TARGET, { validUntil: 1_700_000_300, validAfter: 1_700_000_000 }, signature);
    expect(data.slice(0, 42)).toBe(TARGET.toLowerCase());
    const [until, after] = AbiCoder.defaultAbiCoder().decode(["uint48", "uint48"], `0x${data.slice(42, 42 + 128)}`);
    expect([until, after]).toEqual([1_700_000_300n, 1_700_000_000n]);
    expect(`0x${data.slice(42 + 128)}`).toBe(signature);
    expect(() => encodePaymasterAndData(TARGET, { validUntil: 5, validAfter: 5 }, signature)).toThrow(ContractsError);
    expect(() => encodePaymasterAndData(TARGET, { validUntil: 2 ** 48, validAfter: 0 }, signature)).toThrow(ContractsError);
  });

  it("renders an operation as RPC hex quantities", () => {
    const op = buildUserOperation({ sender: OWNER, nonce: 255n, callData: "0x", maxFeePerGas: 16n });
    expect(userOperationToRpc(op)).toMatchObject({ nonce: "0xff", maxFeePerGas: "0x10", callGasLimit: "0x7a120", initCode: "0x" });
  });

  it("computes the handleOps gas limit from the operations, capped at 2^24", () => {
    const op = buildUserOperation({ sender: OWNER, nonce: 0n, callData: "0x", maxFeePerGas: 1n });
    expect(handleOpsGasLimit([op])).toBe(100_000n + 250_000n * 3n + 500_000n + 50_000n);
    expect(handleOpsGasLimit(Array.from({ length: 20 }, () => op))).toBe(16_777_216n);
    expect(TRANSACTION_GAS_CAP).toBe(2n ** 24n);
  });

  it("encodes the handleOps transaction with its computed gas limit, and refuses an empty bundle", () => {
    const op = buildUserOperation({ sender: OWNER, nonce: 0n, callData: "0x", maxFeePerGas: 1n });
    const tx = handleOpsTransaction(TARGET, [op, op], FACTORY);
    expect(tx.to).toBe(TARGET);
    expect(tx.gasLimit).toBe(handleOpsGasLimit([op, op]));
    const [ops, beneficiary] = new Interface(entryPointAbi).decodeFunctionData("handleOps", tx.data);
    expect([ops.length, beneficiary]).toEqual([2, FACTORY]);
    expect(handleOpsTransaction(TARGET, [op], FACTORY, 42n).gasLimit).toBe(42n);
    expect(() => handleOpsTransaction(TARGET, [], FACTORY)).toThrow(ContractsError);
  });

  it("decodes Slotgate and EntryPoint custom errors from revert data", () => {
    const exchange = new Interface(contentTokenExchangeAbi);
    const data = exchange.encodeErrorResult("InsufficientBalance", [TARGET, 1n, 2n]);
    expect(decodeContractError(data)).toEqual({
      name: "InsufficientBalance",
      signature: "InsufficientBalance(address,uint256,uint256)",
      args: [TARGET, 1n, 2n],
    });
    const failedOp = `${id("FailedOp(uint256,string)").slice(0, 10)}${AbiCoder.defaultAbiCoder().encode(["uint256", "string"], [0n, "AA24 signature error"]).slice(2)}`;
    expect(decodeContractError({ data: failedOp })?.args).toEqual([0n, "AA24 signature error"]);
    expect(decodeContractError({ info: { error: { data: failedOp } } })?.name).toBe("FailedOp");
    const requireMessage = `0x08c379a0${AbiCoder.defaultAbiCoder().encode(["string"], ["only owner"]).slice(2)}`;
    expect(decodeContractError(requireMessage)).toMatchObject({ name: "Error", args: ["only owner"] });
    expect(decodeContractError("0x12345678")).toBeUndefined();
    expect(decodeContractError(new Error("boom"))).toBeUndefined();
    expect(decodeContractError(undefined)).toBeUndefined();
  });

  it("ContractsError carries code, reason and cause", () => {
    const cause = new Error("inner");
    const error = new ContractsError("user_operation_rejected", "rejected", { cause, reason: "AA32 paymaster expired or not due" });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.reason, error.cause]).toEqual([
      "ContractsError",
      "user_operation_rejected",
      "AA32 paymaster expired or not due",
      cause,
    ]);
    expect(Wallet).toBeDefined();
  });
});

describe("wallet calls", () => {
  it("builds approve + buy_content_token, approve_purchases, change_slot_owner and changeOwner calls", async () => {
    const { approvePurchasesCall, buyContentTokenCalls, changeOwnerCallData, changeSlotOwnerCall, xotnAbi } = await import("../src/index.js");
    const exchange = new Interface(contentTokenExchangeAbi);
    const [approve, buy] = buyContentTokenCalls({ xotn: TARGET, exchange: FACTORY, slot: OWNER, cuid: "g", amount: 5n });
    expect(approve?.to).toBe(TARGET);
    expect([...new Interface(xotnAbi).decodeFunctionData("approve", approve?.data ?? "0x")]).toEqual([FACTORY, 5n]);
    expect(buy?.to).toBe(FACTORY);
    expect([...exchange.decodeFunctionData("buy_content_token", buy?.data ?? "0x")]).toEqual([OWNER, "g", 5n]);
    expect(() => buyContentTokenCalls({ xotn: TARGET, exchange: FACTORY, slot: OWNER, cuid: "g", amount: 0n })).toThrow(ContractsError);
    const consent = approvePurchasesCall(FACTORY, "g", 9n);
    expect(consent.to).toBe(FACTORY);
    expect([...exchange.decodeFunctionData("approve_purchases", consent.data ?? "0x")]).toEqual(["g", 9n]);
    expect(() => approvePurchasesCall(FACTORY, "g", -1n)).toThrow(ContractsError);
    expect([...exchange.decodeFunctionData("change_slot_owner", changeSlotOwnerCall(FACTORY, "g", 3n, TARGET).data ?? "0x")]).toEqual(["g", 3n, TARGET]);
    expect([...new Interface(slotgateAccountAbi).decodeFunctionData("changeOwner", changeOwnerCallData(OWNER).callData)]).toEqual([OWNER]);
  });

  it("builds ERC-20 transfer and approve calls and the single buy_content_token call", async () => {
    const { buyContentTokenCall, erc20ApproveCall, erc20TransferCall, xotnAbi } = await import("../src/index.js");
    const erc20 = new Interface(xotnAbi);
    const transfer = erc20TransferCall(TARGET, OWNER, 7n);
    expect(transfer.to).toBe(TARGET);
    expect([...erc20.decodeFunctionData("transfer", transfer.data ?? "0x")]).toEqual([OWNER, 7n]);
    const approve = erc20ApproveCall(TARGET, FACTORY, 9n);
    expect(approve.to).toBe(TARGET);
    expect([...erc20.decodeFunctionData("approve", approve.data ?? "0x")]).toEqual([FACTORY, 9n]);
    const buy = buyContentTokenCall(FACTORY, OWNER, "g", 5n);
    expect(buy.to).toBe(FACTORY);
    expect([...new Interface(contentTokenExchangeAbi).decodeFunctionData("buy_content_token", buy.data ?? "0x")]).toEqual([OWNER, "g", 5n]);
  });
});
