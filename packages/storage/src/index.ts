/**
 * `@slotgate/storage`: the one SQL interface of Slotgate's packages (PostgreSQL through `pg`, or
 * embedded PGlite; both speak the same SQL with `$1` placeholders), the one migration runner every
 * package that owns tables uses, and the one way to seal a secret kept in a row (AES-256-GCM bound to
 * the row's identity).
 *
 * @example
 * ```ts
 * import { migrate, openDatabase } from "@slotgate/storage";
 *
 * const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
 * await migrate(db, { table: "app_schema_migrations", lockKey: 42, migrations });
 * ```
 *
 * @packageDocumentation
 */
export { type Database, type OpenDatabaseOptions, type Queryable, openDatabase } from "./database.js";
export { lockFile, processAlive } from "./lock-file.js";
export { type Migration, type MigrationSet, appliedVersions, migrate, splitStatements } from "./migrations.js";
export { SealedValueError, deriveSealingKey, isSealedValue, openSealed, sealValue } from "./sealing.js";
