import { createHmac } from "node:crypto";
import { AbiCoder, computeAddress, getCreate2Address, keccak256, toUtf8Bytes } from "ethers";

/**
 * Where a user's slot wallet (`content_address`, spec 2.6) comes from. The chain service
 * (issue 5) provides the real implementation; until then {@link DerivedWalletDirectory} is used.
 */
export interface WalletDirectory {
  /** The slot wallet address of a user for a client application (checksummed 0x address). */
  contentAddressFor(userId: string, clientId: string): Promise<string>;
}

/**
 * INTERIM wallet directory: derives spec 2.6's hierarchy deterministically without a chain.
 * owner_eoa = address of HMAC-SHA256(secret, "owner_eoa:" + userId) as a private key;
 * content_address = CREATE2(factory, keccak256(abi.encode(owner_eoa, C_SALT)), initCodeHash)
 * with C_SALT = keccak256("slotgate.c_salt:" + clientId). Same inputs always give the same address.
 * Nothing is deployed; the chain service replaces this with the real factory and init code.
 *
 * @example
 * ```ts
 * const wallets = new DerivedWalletDirectory(secret);
 * await wallets.contentAddressFor("42", "sg_0123456789abcdef01234567"); // "0x…", same every time
 * ```
 */
export class DerivedWalletDirectory implements WalletDirectory {
  /** Placeholder factory and init-code hash until the contracts are deployed. */
  static readonly FACTORY = "0x5106a7e05106a7e05106a7e05106a7e05106a7e0";
  static readonly INIT_CODE_HASH = keccak256(toUtf8Bytes("slotgate.interim.simple-account.v0.6"));

  constructor(private readonly secret: string) {}

  async contentAddressFor(userId: string, clientId: string): Promise<string> {
    const ownerKey = createHmac("sha256", this.secret).update(`owner_eoa:${userId}`).digest();
    const ownerEoa = computeAddress(`0x${ownerKey.toString("hex")}`);
    const cSalt = keccak256(toUtf8Bytes(`slotgate.c_salt:${clientId}`));
    const salt = keccak256(AbiCoder.defaultAbiCoder().encode(["address", "bytes32"], [ownerEoa, cSalt]));
    return getCreate2Address(DerivedWalletDirectory.FACTORY, salt, DerivedWalletDirectory.INIT_CODE_HASH);
  }
}
