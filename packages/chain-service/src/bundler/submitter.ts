import type { UserOperation } from "@slotgate/contracts";

/** What became of one submitted UserOperation. */
export interface UserOperationReceipt {
  /** EntryPoint hash of the operation. */
  userOpHash: string;
  /** The transaction that included it (a `handleOps`). */
  transactionHash: string;
  /** Whether the wallet's call succeeded (the nonce is used and gas paid either way). */
  success: boolean;
  /** Decoded custom error name of a failed call, when known. */
  revertReason?: string;
}

/**
 * Where signed, sponsored UserOperations go: the built-in bundler (the platform calls
 * `EntryPoint.handleOps`) or an external ERC-4337 bundler (`eth_sendUserOperation`).
 */
export interface UserOperationSubmitter {
  /** Queues the operation; resolves once it is included on chain. */
  submit(op: UserOperation): Promise<UserOperationReceipt>;
  /** Stops accepting operations and waits for the queued ones. */
  close(): Promise<void>;
}
