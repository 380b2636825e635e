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
  /**
   * Whether several operations of one wallet may be queued before the first is included. True for the
   * built-in bundler (one batch in flight, nonce order kept). False for an external bundler: it
   * simulates each operation alone, where the second one's nonce and paymaster hash are not valid yet,
   * so the service waits for each operation of a wallet before signing the next.
   */
  readonly pipelinesPerWallet: boolean;
  /** Queues the operation; resolves once it is included on chain. */
  submit(op: UserOperation): Promise<UserOperationReceipt>;
  /** Stops accepting operations and waits for the queued ones. */
  close(): Promise<void>;
}
