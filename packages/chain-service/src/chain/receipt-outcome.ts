import { type Log, type TransactionReceipt, id, keccak256, toUtf8Bytes } from "ethers";
import type { TransactionPlace } from "../storage/signers.js";

/** `UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)` (EntryPoint v0.6). */
const USER_OPERATION_EVENT = id("UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)");

/** What a receipt's outcome is computed from. */
export interface ReceiptFacts {
  status: number | null;
  logs: readonly Pick<Log, "address" | "topics" | "data">[];
}

/**
 * @internal What a landed transaction did, as one hash: its status and every event it emitted (emitter,
 * topics, data), in order. The gas an operation paid is left out (`UserOperationEvent`'s `actualGasCost`
 * and `actualGasUsed`: they follow the block's base fee, which a rebuilt block need not share); its
 * `nonce` and `success` stay. Kept when the transaction settles (`cs_transactions.outcome`), and compared
 * with the receipt of the same signed transaction sent again after the chain lost its block
 * (chain/rebuild.ts): equal hashes mean every balance, `used_balances`, owner and registration it moved
 * moved the same way.
 *
 * @example
 * ```ts
 * const outcome = receiptOutcome(await provider.getTransactionReceipt(hash)); // "0x…" (32 bytes)
 * ```
 */
export function receiptOutcome(receipt: ReceiptFacts): string {
  const events = receipt.logs.map((log) => {
    const topics = log.topics.map((topic) => topic.toLowerCase());
    // nonce and success: the first two words of the event's data.
    const data = topics[0] === USER_OPERATION_EVENT ? log.data.slice(0, 2 + 2 * 64) : log.data;
    return [log.address.toLowerCase(), topics, data.toLowerCase()];
  });
  return keccak256(toUtf8Bytes(JSON.stringify([receipt.status, events])));
}

/**
 * @internal Where a receipt's transaction landed and what it did, as `cs_transactions` keeps it.
 *
 * @example
 * ```ts
 * await settleTransaction(db, signer, nonce, transactionPlace(receipt));
 * ```
 */
export function transactionPlace(receipt: TransactionReceipt): TransactionPlace {
  return {
    status: receipt.status === 1 ? "mined" : "reverted",
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    txIndex: receipt.index,
    gasUsed: receipt.gasUsed,
    outcome: receiptOutcome(receipt),
  };
}
