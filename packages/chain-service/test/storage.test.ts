import { PGlite } from "@electric-sql/pglite";
import { fromPGlite, migrate } from "../src/index.js";
import { defineStorageSuite } from "./helpers/storage-suite.js";

let db: ReturnType<typeof fromPGlite> | undefined;
defineStorageSuite("PGlite", async () => {
  if (!db) {
    db = fromPGlite(new PGlite());
    await migrate(db);
  }
  return db;
});
