export { type PGliteLike, type PgClientLike, type PgPoolLike, type SqlDatabase, type SqlResult, fromPGlite, fromPgPool } from "./database.js";
export { MIGRATIONS, migrate } from "./migrations.js";
