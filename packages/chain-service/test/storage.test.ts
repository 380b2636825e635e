import { migrateChainService } from "../src/index.js";
import { defineStorageSuite } from "./helpers/storage-suite.js";
import { sharedDatabase } from "./helpers/setup.js";

defineStorageSuite("PGlite", async () => {
  const db = await sharedDatabase();
  await migrateChainService(db);
  return db;
});
