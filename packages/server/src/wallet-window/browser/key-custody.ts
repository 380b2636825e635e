/**
 * Key custody on the service's origin (docs/decisions/wallet-window.md): the player's `key_share_user`
 * is kept in IndexedDB (`slotgate-wallet`, by user id) encrypted with AES-GCM-256 under a key made
 * non-extractable by WebCrypto. The key object is stored as it is (structured clone keeps it
 * non-extractable), so script can use it on this origin but never read its bytes; the share leaves this
 * origin only in the approve post to the service itself.
 */

const DB_NAME = "slotgate-wallet";
const STORE = "key-shares";

/** What is stored per user: the wrapping key, the IV, the sealed share and the PIN salt (not secret). */
interface SealedShare {
  key: CryptoKey;
  iv: Uint8Array<ArrayBuffer>;
  sealed: ArrayBuffer;
  pinSalt: string;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB request failed"));
  });
}

function openDb(): Promise<IDBDatabase> {
  const open = indexedDB.open(DB_NAME, 1);
  open.onupgradeneeded = () => {
    open.result.createObjectStore(STORE);
  };
  return request(open);
}

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await request(run(db.transaction(STORE, mode).objectStore(STORE)));
  } finally {
    db.close();
  }
}

const hexToBytes = (hex: string): Uint8Array<ArrayBuffer> => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const bytesToHex = (bytes: ArrayBuffer | Uint8Array): string => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Seals `keyShareUser` for `userId` under a fresh non-extractable AES-GCM-256 key, replacing any earlier one.
 *
 * @example
 * ```ts
 * await sealKeyShare("7", answer.key_share_user, pinSalt);
 * ```
 */
export async function sealKeyShare(userId: string, keyShareUser: string, pinSalt: string): Promise<void> {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, hexToBytes(keyShareUser));
  const record: SealedShare = { key, iv, sealed, pinSalt };
  await withStore("readwrite", (store) => store.put(record, userId));
}

/**
 * The key share and PIN salt this origin sealed for `userId`, or null when this browser holds none.
 *
 * @example
 * ```ts
 * const held = await openKeyShare("7"); // { keyShareUser: "…", pinSalt: "…" } | null
 * ```
 */
export async function openKeyShare(userId: string): Promise<{ keyShareUser: string; pinSalt: string } | null> {
  const record = (await withStore("readonly", (store) => store.get(userId))) as SealedShare | undefined;
  if (!record) return null;
  const share = await crypto.subtle.decrypt({ name: "AES-GCM", iv: record.iv }, record.key, record.sealed);
  return { keyShareUser: bytesToHex(share), pinSalt: record.pinSalt };
}

/**
 * SHA-256 hex of `pin + salt` (UTF-8): the `pin_hash` the service expects (spec 4.10: the PIN followed by its salt).
 *
 * @example
 * ```ts
 * const pin_hash = await pinHash("123456", pinSalt);
 * ```
 */
export async function pinHash(pin: string, salt: string): Promise<string> {
  return bytesToHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(pin + salt)));
}

/** A fresh pin_salt: 32 random bytes, 64 hex characters. */
export function newPinSalt(): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}
