/**
 * Shared AES-256-CTR test vectors for the encrypted spend call (spec 4.8).
 *
 * The backend SDK's helper, the simulated service and the reference server's
 * `test_encryption` must all produce exactly these ciphertexts. The first
 * vector's key and IV are those of NIST SP 800-38A F.5.5 (CTR-AES256), whose
 * first block `6bc1bee2…` encrypts to `601ec313…`; the
 * `nist-sp800-38a-f55-block1` vector pins that.
 *
 * @example
 * ```ts
 * import { ENCRYPTION_TEST_VECTORS } from "@slotgate/protocol/test-vectors";
 * for (const v of ENCRYPTION_TEST_VECTORS) expect(encrypt(v.plaintext, v)).toBe(v.ciphertext);
 * ```
 *
 * @packageDocumentation
 */

/** One AES-256-CTR vector: hex key (32 bytes), hex IV (16 bytes), UTF-8 plaintext, hex ciphertext. */
export interface EncryptionTestVector {
  name: string;
  key: string;
  iv: string;
  plaintext: string;
  ciphertext: string;
}

/** NIST SP 800-38A F.5.5, first block, as raw hex (plaintext is hex here, not UTF-8). */
export const NIST_CTR_AES256_BLOCK1 = {
  key: "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
  iv: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
  plaintextHex: "6bc1bee22e409f96e93d7e117393172a",
  ciphertext: "601ec313775789a5b7a7f504bbf3d228",
} as const;

/** The shared vectors. */
export const ENCRYPTION_TEST_VECTORS: readonly EncryptionTestVector[] = [
  {
    name: "spend payload",
    key: "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
    iv: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
    plaintext: '{"client_id":"sg_demo_client","user_dbkey":"1001","amount":"25","cuid":"demo-game"}',
    ciphertext:
      "70fd1e9d3072784701f3ef37f242b665050a0cf03c3e7a6a3d56e848ad4959e168a45ec36503663874a9ec8106befa530b7ac3a9045a43dfcacba6519120549aa9148a89bd5e33b0b3926373c4a8a2da29c91a",
  },
  {
    name: "utf-8 test string",
    key: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    iv: "00000000000000000000000000000001",
    plaintext: "héllo, Slotgate ✓",
    ciphertext: "989edfc226d6b3c5f59af4452fa342582e5e294d",
  },
  {
    name: "counter wraps within the IV",
    key: "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
    iv: "ffffffffffffffffffffffffffffffff",
    plaintext: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ciphertext: "9d4cf64c7e2485a16745afef86720c76dfa2e979d647cf5a67f0436327eab06a66c16ab3e11ccc23",
  },
  {
    name: "empty string",
    key: "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
    iv: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
    plaintext: "",
    ciphertext: "",
  },
];
