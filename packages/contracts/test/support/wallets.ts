import { Interface, type Signer } from "ethers";
import {
  C_SALT,
  type PrepareSponsoredUserOperationInput,
  type PreparedUserOperation,
  type SentUserOperation,
  W_SALT,
  computeWalletAddress,
  contentTokenExchangeAbi,
  prepareSponsoredUserOperation,
  sendSponsoredUserOperation,
  slotgateAccountAbi,
  xotnAbi,
} from "../../src/index.js";
import type { TestSystem } from "./system.js";

export const exchangeInterface = new Interface(contentTokenExchangeAbi);
export const xotnInterface = new Interface(xotnAbi);
export const accountInterface = new Interface(slotgateAccountAbi);

/** The user and slot wallets of an owner key on the test system's factory. */
export function walletsOf(s: TestSystem, owner: Signer & { address: string }) {
  return {
    userWallet: computeWalletAddress(s.addresses.factory, owner.address, W_SALT),
    slotWallet: computeWalletAddress(s.addresses.factory, owner.address, C_SALT),
  };
}

function inputOf(
  s: TestSystem,
  owner: Signer,
  calls: PrepareSponsoredUserOperationInput["calls"],
  extra: Partial<PrepareSponsoredUserOperationInput>,
): PrepareSponsoredUserOperationInput {
  return { provider: s.provider, addresses: s.addresses, owner, paymasterSigner: s.paymasterSigner, calls, ...extra };
}

/** Prepares (builds, sponsors, signs) one UserOperation from `owner`'s wallet, reading the chain for the rest. */
export function prepareAs(
  s: TestSystem,
  owner: Signer,
  calls: PrepareSponsoredUserOperationInput["calls"],
  extra: Partial<PrepareSponsoredUserOperationInput> = {},
): Promise<PreparedUserOperation> {
  return prepareSponsoredUserOperation(inputOf(s, owner, calls, extra));
}

/** Sends one sponsored UserOperation from `owner`'s wallet, bundled by the test bundler. */
export function sendAs(
  s: TestSystem,
  owner: Signer,
  calls: PrepareSponsoredUserOperationInput["calls"],
  extra: Partial<PrepareSponsoredUserOperationInput> = {},
): Promise<SentUserOperation> {
  return sendSponsoredUserOperation({ ...inputOf(s, owner, calls, extra), bundler: s.bundler });
}
