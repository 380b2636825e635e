import { getAddress } from "ethers";
import { SealedValueError, deriveSealingKey, openSealed, sealValue } from "@slotgate/storage";
import { ChainServiceError } from "../errors.js";

/**
 * @internal The identity each sealed secret is bound to (its associated data): a value opens only in
 * the record it was sealed for, so one copied or swapped into another row is refused.
 */
export const SEALED_RECORD = {
  /** A user's server share (`cs_keys`, key id = the user). */
  serverShare: (userUuid: number): string => `slotgate/server-share/${userUuid}`,
  /**
   * A stored owner mnemonic (`_MN` in `cs_keys`, or a pending rotation): the user and the owner EOA it
   * derives, so recovery can move a pending rotation's sealed words into `_MN` as they are.
   */
  ownerMnemonic: (userUuid: number, owner: string): string => `slotgate/owner-mnemonic/${userUuid}/${getAddress(owner)}`,
  /** A provider's AES key (`cs_providers`, current or previous): the client and the IV it goes with. */
  providerKey: (clientId: string, iv: string): string => `slotgate/provider-aes-key/${clientId}/${iv.toLowerCase()}`,
} as const;

/**
 * @internal Opens a sealed value, or `sealed_record_invalid` naming nothing secret (the record's
 * identity is kept in the cause, for the log line).
 */
export function openRecord(key: Uint8Array, sealed: string, record: string): Buffer {
  try {
    return openSealed(key, sealed, record);
  } catch (error) {
    if (!(error instanceof SealedValueError)) throw error;
    throw new ChainServiceError("sealed_record_invalid", undefined, { cause: new SealedValueError(`the sealed record ${record} failed its integrity check`) });
  }
}

/**
 * @internal Seals and opens the secrets kept under the key-encryption key (server shares, providers'
 * AES keys) with `@slotgate/storage`'s `sealValue`: AES-256-GCM under a key derived from the KEK for
 * this purpose alone, bound to the record (see {@link SEALED_RECORD}).
 */
export class SecretSealer {
  readonly #key: Buffer;

  /** @param kek - the key-encryption key, 32 bytes */
  constructor(kek: Uint8Array) {
    this.#key = deriveSealingKey(kek, "slotgate/chain-service/kek-sealed/v1");
  }

  /** Seals `data` for `record`. */
  seal(data: Uint8Array, record: string): string {
    return sealValue(this.#key, data, record);
  }

  /** Opens what {@link SecretSealer.seal} made for the same record into a Buffer the caller wipes; `sealed_record_invalid` otherwise. */
  open(sealed: string, record: string): Buffer {
    return openRecord(this.#key, sealed, record);
  }
}
