/**
 * `@slotgate/contracts`: the Slotgate smart contracts (XOTN, the content-token exchange and slot
 * registry, the ERC-4337 v0.6 EntryPoint, account factory and verifying paymaster) as typed ABIs and
 * bytecode, plus deployment, wallet-address and sponsored-UserOperation helpers for ethers v6.
 *
 * @packageDocumentation
 */

// Errors
export { ContractsError } from "./errors.js";
export type { ContractsErrorCode, ContractsErrorOptions } from "./errors.js";
export { decodeContractError } from "./contracts/decode-error.js";
export type { DecodedContractError } from "./contracts/decode-error.js";

// ABIs, bytecode and typed contract handles
export { xotnAbi, xotnBytecode } from "./generated/xotn.js";
export type { XotnContract } from "./generated/xotn.js";
export { contentTokenExchangeAbi, contentTokenExchangeBytecode } from "./generated/contentTokenExchange.js";
export type { ContentTokenExchangeContract } from "./generated/contentTokenExchange.js";
export { entryPointAbi, entryPointBytecode } from "./generated/entryPoint.js";
export type { EntryPointContract } from "./generated/entryPoint.js";
export { slotgateAccountAbi, slotgateAccountBytecode } from "./generated/slotgateAccount.js";
export type { SlotgateAccountContract } from "./generated/slotgateAccount.js";
export { slotgateAccountFactoryAbi, slotgateAccountFactoryBytecode } from "./generated/slotgateAccountFactory.js";
export type { SlotgateAccountFactoryContract } from "./generated/slotgateAccountFactory.js";
export { slotgatePaymasterAbi, slotgatePaymasterBytecode } from "./generated/slotgatePaymaster.js";
export type { SlotgatePaymasterContract } from "./generated/slotgatePaymaster.js";
export { erc1967ProxyAbi, erc1967ProxyBytecode } from "./generated/erc1967Proxy.js";
export type { MethodArgs, StateMutability, TypedMethod } from "./contracts/typed-method.js";
export { connectAccount, connectContracts } from "./contracts/connect.js";
export type { SlotgateAddresses, SlotgateContracts } from "./contracts/connect.js";

// Deployment
export { deploy } from "./deploy.js";
export type { DeployOptions, DeployResult } from "./deploy.js";

// Wallet addresses (spec 2.6)
export {
  C_SALT,
  W_SALT,
  computeAccountImplementationAddress,
  computeWalletAddress,
  computeWalletAddresses,
  encodeInitCode,
  slotSalt,
} from "./wallet/addresses.js";
export type { WalletAddresses } from "./wallet/addresses.js";

// Wallet calls: tokens, the exchange and key rotation
export {
  approvePurchasesCall,
  buyContentTokenCall,
  buyContentTokenCalls,
  changeOwnerCallData,
  changeSlotOwnerCall,
  erc20ApproveCall,
  erc20TransferCall,
  slotSaleCalls,
} from "./wallet/calls.js";
export type { BuyContentTokenCallsInput, SlotSaleCallsInput } from "./wallet/calls.js";

// The sponsored UserOperation pipeline (spec 4.11): build, sponsor, sign, submit
export {
  buildUserOperation,
  encodeCalls,
  encodeExecute,
  encodeExecuteBatch,
  getUserOpHash,
  userOperationToRpc,
} from "./sponsorship/user-operation.js";
export type {
  BuildUserOperationInput,
  UserOperation,
  UserOperationCalls,
  UserOperationGas,
  WalletCall,
} from "./sponsorship/user-operation.js";
export { TRANSACTION_GAS_CAP, handleOpsGasLimit } from "./sponsorship/gas.js";
export {
  DEFAULT_MAX_OPERATION_GAS,
  checkOperationGas,
  operationGasCeiling,
  simulateWalletCall,
} from "./sponsorship/policy.js";
export type { SimulateWalletCallInput, SponsorshipPolicy } from "./sponsorship/policy.js";
export {
  DEFAULT_SPONSORSHIP_SECONDS,
  SPONSORSHIP_START_LEEWAY_SECONDS,
  encodePaymasterAndData,
  paymasterHash,
  sponsorUserOperation,
  sponsorshipWindow,
} from "./sponsorship/sponsor.js";
export type { PaymasterHashInput, SponsorOptions, SponsorshipWindow } from "./sponsorship/sponsor.js";
export { signUserOperation } from "./sponsorship/sign.js";
export type { SigningDomain } from "./sponsorship/sign.js";
export {
  handleOpsTransaction,
  simulateHandleOps,
  submitUserOperations,
  userOperationOutcomes,
} from "./sponsorship/submit.js";
export type { HandleOpsTransaction, SubmitOptions, SubmitResult, UserOperationOutcome } from "./sponsorship/submit.js";
export { assembleSponsoredUserOperation, prepareSponsoredUserOperation, readOperationNonces, sendSponsoredUserOperation } from "./sponsorship/prepare.js";
export type {
  AssembleSponsoredUserOperationInput,
  OperationNonces,
  PrepareSponsoredUserOperationInput,
  PreparedUserOperation,
  SendSponsoredUserOperationInput,
  SentUserOperation,
  UserOperationFees,
} from "./sponsorship/prepare.js";
