import { createHash, randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { type ChainService, type ChainServiceConfig, createChainService, fromPGlite, type SqlDatabase } from "../../src/index.js";

/** A PIN as a client sends it: pin_hash = SHA-256(pin ‖ salt), salt 64 hex. */
export function pinOf(pin: string, salt = randomBytes(32).toString("hex")) {
  return { pin_hash: createHash("sha256").update(pin + salt).digest("hex"), pin_salt: salt };
}

let pgliteOnce: PGlite | undefined;

export interface Harness {
  service: ChainService;
  db: SqlDatabase;
  pglite: PGlite;
}

/** A service on the in-process chain with an in-memory PGlite database. */
export async function startService(overrides: Partial<ChainServiceConfig> = {}, wrapDb?: (db: SqlDatabase) => SqlDatabase): Promise<Harness> {
  pgliteOnce ??= new PGlite();
  const pglite = pgliteOnce;
  const db = fromPGlite(pglite);
  const service = await createChainService({
    db: wrapDb ? wrapDb(db) : db,
    keyEncryptionKey: randomBytes(32).toString("hex"),
    warn: () => undefined,
    ...overrides,
  });
  return { service, db, pglite };
}

let nextUser = Math.floor(Math.random() * 1e9);
/** A fresh user id. */
export const newUserId = () => ++nextUser;
