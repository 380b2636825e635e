import { type Signer, getBytes } from "ethers";
import { type UserOperation, getUserOpHash } from "./user-operation.js";

/** Where the operation will run. */
export interface SigningDomain {
  /** The EntryPoint address. */
  entryPoint: string;
  /** The chain id. */
  chainId: bigint;
}

/**
 * Signs a UserOperation with the wallet's owner EOA: an EIP-191 personal signature of
 * {@link getUserOpHash}, which is what SlotgateAccount (SimpleAccount v0.6) verifies. Sponsor first:
 * the hash covers `paymasterAndData`.
 *
 * @param op - the sponsored operation
 * @param owner - the owner EOA's signer
 * @param domain - EntryPoint and chain id
 * @returns a copy of `op` with `signature` set
 *
 * @example
 * ```ts
 * const signed = await signUserOperation(sponsored, ownerWallet, { entryPoint: addresses.entryPoint, chainId: 31337n });
 * ```
 */
export async function signUserOperation(op: UserOperation, owner: Signer, domain: SigningDomain): Promise<UserOperation> {
  return (await signedWithHash(op, owner, domain)).userOperation;
}

/** @internal {@link signUserOperation}, answering the hash it signed too (the operation's {@link getUserOpHash}: `signature` is not covered). */
export async function signedWithHash(op: UserOperation, owner: Signer, domain: SigningDomain): Promise<{ userOperation: UserOperation; userOpHash: string }> {
  const userOpHash = getUserOpHash(op, domain.entryPoint, domain.chainId);
  return { userOperation: { ...op, signature: await owner.signMessage(getBytes(userOpHash)) }, userOpHash };
}
