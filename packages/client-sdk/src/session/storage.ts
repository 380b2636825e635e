import { LEGACY_STORAGE_PREFIX, STORAGE_PREFIX } from "../constants.js";

/** Storage keys the SDK owns. @internal */
export const KEYS = {
  accessToken: `${STORAGE_PREFIX}access_token`,
  refreshToken: `${STORAGE_PREFIX}refresh_token`,
  code: `${STORAGE_PREFIX}code`,
} as const;

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** In-memory stand-in when localStorage is missing or throws (private mode, sandboxed iframe, SSR). */
function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

/** localStorage when usable, else memory. @internal */
export function openStore(): KeyValueStore {
  try {
    const store = globalThis.localStorage;
    const probe = `${STORAGE_PREFIX}probe`;
    store.setItem(probe, "1");
    store.removeItem(probe);
    return store;
  } catch {
    return memoryStore();
  }
}

function keysWithPrefix(store: KeyValueStore, prefix: string): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(prefix)) keys.push(key);
  }
  return keys;
}

/**
 * Moves every v1 `gameauth_*` key to `slotgate_*` (v3 keys already present win) and deletes the legacy key.
 * Idempotent, so running it on every construction makes the move happen exactly once per key. @internal
 */
export function migrateLegacyKeys(store: KeyValueStore): void {
  for (const legacy of keysWithPrefix(store, LEGACY_STORAGE_PREFIX)) {
    const key = STORAGE_PREFIX + legacy.slice(LEGACY_STORAGE_PREFIX.length);
    const value = store.getItem(legacy);
    if (value !== null && store.getItem(key) === null) store.setItem(key, value);
    store.removeItem(legacy);
  }
}

/** Removes every `slotgate_*` key. @internal */
export function clearSession(store: KeyValueStore): void {
  for (const key of keysWithPrefix(store, STORAGE_PREFIX)) store.removeItem(key);
}

export type { KeyValueStore };
