export { BuiltInBundler, type BuiltInBundlerOptions, type BundlerStats } from "./built-in.js";
export { ExternalBundler, type ExternalBundlerOptions } from "./external.js";
export { type NextNonces, WalletNonces } from "./nonces.js";
export { type OffChainSponsorInput, paymasterHash, sponsorOffChain } from "./paymaster-hash.js";
export type { UserOperationReceipt, UserOperationSubmitter } from "./submitter.js";
