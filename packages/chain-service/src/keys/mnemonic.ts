import { HDNodeWallet, Mnemonic, Wallet, randomBytes } from "ethers";
import { ChainServiceError } from "../errors.js";

/** BIP-44 path of the owner EOA (first Ethereum account). */
export const OWNER_DERIVATION_PATH = "m/44'/60'/0'/0/0";

/** An owner EOA generated from or restored from a mnemonic. */
export interface OwnerKey {
  /** The 12-word BIP-39 phrase. */
  mnemonic: string;
  /** The 32-byte private key; wipe it when done. */
  privateKey: Buffer;
  /** The owner EOA address (checksummed). */
  address: string;
}

function fromPhrase(phrase: string): OwnerKey {
  const node = HDNodeWallet.fromPhrase(phrase, undefined, OWNER_DERIVATION_PATH);
  return { mnemonic: phrase, privateKey: Buffer.from(node.privateKey.slice(2), "hex"), address: node.address };
}

/**
 * Generates a fresh owner EOA from a new 12-word BIP-39 mnemonic (128 bits of entropy),
 * derived at `m/44'/60'/0'/0/0`.
 *
 * @example
 * ```ts
 * const owner = generateOwnerKey();
 * try { split(owner.privateKey); } finally { wipe(owner.privateKey); }
 * ```
 */
export function generateOwnerKey(): OwnerKey {
  const entropy = randomBytes(16);
  try {
    return fromPhrase(Mnemonic.fromEntropy(entropy).phrase);
  } finally {
    entropy.fill(0);
  }
}

/**
 * Restores the owner EOA of a mnemonic. Throws `invalid_request` for a phrase that is not valid BIP-39.
 *
 * @example
 * ```ts
 * const owner = ownerKeyFromMnemonic("test test test test test test test test test test test junk");
 * ```
 */
export function ownerKeyFromMnemonic(phrase: string): OwnerKey {
  const normalized = typeof phrase === "string" ? phrase.trim().split(/\s+/).join(" ").toLowerCase() : "";
  if (!Mnemonic.isValidMnemonic(normalized)) {
    throw new ChainServiceError("invalid_request", "mnemonic is not a valid BIP-39 phrase");
  }
  return fromPhrase(normalized);
}

/**
 * An ethers signer for a raw private key. ethers keeps keys as immutable strings, which cannot be
 * wiped: keep the signer's lifetime to one signing step and drop the reference.
 *
 * @example
 * ```ts
 * const signature = await signerFor(key).signMessage(hashBytes);
 * ```
 */
export function signerFor(privateKey: Uint8Array): Wallet {
  return new Wallet(`0x${Buffer.from(privateKey).toString("hex")}`);
}
