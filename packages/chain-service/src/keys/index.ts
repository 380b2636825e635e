export { readMnemonicBackup } from "./backup.js";
export { BACKUP_KEY_INFO, deriveBackupKey, openHex, openLegacyBytes, sealHex } from "./envelope.js";
export { SEALED_RECORD, SecretSealer } from "./sealed-secrets.js";
export { OWNER_DERIVATION_PATH, type OwnerKey, generateOwnerKey, ownerKeyFromMnemonic, signerFor } from "./mnemonic.js";
export { DEFAULT_PIN_PBKDF2_SALT, type SharePinOptions, deriveSharePin } from "./share-pin.js";
export { type KeySplit, restoreKey, splitKey } from "./split.js";
export { wipe } from "./wipe.js";
