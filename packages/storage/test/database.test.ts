import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, lockFile, openDatabase, processAlive } from "../src/index.js";

const PG_URL = process.env.SLOTGATE_TEST_DATABASE_URL;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "sg-storage-"));
  dirs.push(dir);
  return dir;
};

function behavesAsADatabase(name: string, open: () => Promise<Database>) {
  describe(name, () => {
    it("commits a transaction that resolves and rolls back one that throws", async () => {
      const db = await open();
      try {
        await db.query("CREATE TABLE t (x int)");
        await db.transaction(async (tx) => {
          await tx.query("INSERT INTO t VALUES ($1)", [1]);
        });
        await expect(
          db.transaction(async (tx) => {
            await tx.query("INSERT INTO t VALUES ($1)", [2]);
            throw new Error("stop");
          }),
        ).rejects.toThrow("stop");
        expect(await db.query("SELECT x FROM t")).toEqual([{ x: 1 }]);
      } finally {
        await db.close();
      }
    });
  });
}

behavesAsADatabase("PGlite in memory", () => openDatabase({}));
describe.runIf(PG_URL)("PostgreSQL", () => {
  behavesAsADatabase("in a fresh schema", async () => {
    const schema = `sg_storage_${randomBytes(5).toString("hex")}`;
    const db = await openDatabase({ databaseUrl: PG_URL, schema, poolSize: 2 });
    const close = db.close.bind(db);
    return {
      ...db,
      async close() {
        await db.query(`DROP SCHEMA ${schema} CASCADE`);
        await close();
      },
    };
  });
});

describe("in-memory databases of one process", () => {
  // Every in-memory database after the first starts from a copy of the first one's freshly initialised
  // data directory: each must still start empty, and none may see another's writes.
  it("each starts empty and keeps its writes to itself", { timeout: 120_000 }, async () => {
    const first = await openDatabase({});
    const second = await openDatabase({});
    try {
      await first.query("CREATE TABLE only_first (x int)");
      await first.query("INSERT INTO only_first VALUES (1)");
      const third = await openDatabase({});
      try {
        await third.query("CREATE TABLE only_third (x int)");
        const tables = async (db: Database) =>
          (await db.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).map(
            (r) => r.name,
          );
        expect(await tables(first)).toEqual(["only_first"]);
        expect(await tables(second)).toEqual([]);
        expect(await tables(third)).toEqual(["only_third"]);
        // Every embedded database runs with the small buffer pool (memory: docs/benchmarks.md), from an image or not.
        for (const db of [first, second, third]) expect(await db.query("SHOW shared_buffers")).toEqual([{ shared_buffers: "16MB" }]);
      } finally {
        await third.close();
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe("the embedded database in a directory", () => {
  it("keeps its data across a close and a reopen, and holds a lock file while open", async () => {
    const dir = join(tempDir(), "db");
    const first = await openDatabase({ dataDir: dir });
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await first.query("CREATE TABLE kept (x int)");
    await first.query("INSERT INTO kept VALUES (7)");
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`the embedded database in ${dir} is in use by process ${process.pid}`);
    await first.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const second = await openDatabase({ dataDir: dir });
    expect(await second.query("SELECT x FROM kept")).toEqual([{ x: 7 }]);
    expect(await second.query("SHOW shared_buffers")).toEqual([{ shared_buffers: "16MB" }]);
    await second.close();
  });
});

describe("lockFile", () => {
  it("refuses a lock held by another running process and takes over one whose process is gone", async () => {
    const file = join(tempDir(), "x.lock");
    const child = spawn(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(file)}, String(process.pid)); setTimeout(() => {}, 30000)`]);
    try {
      // The child's writeFileSync creates the file before it writes the pid: wait for the pid.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (existsSync(file) && readFileSync(file, "utf8") === String(child.pid)) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      expect(() => lockFile(file, "the thing")).toThrow(`the thing is in use by process ${child.pid}`);
    } finally {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    const release = lockFile(file, "the thing");
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(file)).toBe(false);
  });
});

/** The pid of a process that ran and has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.once("exit", resolve));
  expect(processAlive(child.pid!)).toBe(false);
  return child.pid!;
}

describe("lockFile across processes", () => {
  it.each([
    ["free", null],
    ["held by a process that is gone (a crash, then several starts at once)", "stale"],
  ])("gives a lock %s to exactly one of several processes that take it at the same moment", async (_case, left) => {
    const file = join(tempDir(), "race.lock");
    if (left === "stale") writeFileSync(file, String(await deadPid()));
    const dist = new URL("../dist/index.js", import.meta.url).href;
    const start = Date.now() + 1500;
    const script = `
      const { lockFile } = await import(${JSON.stringify(dist)});
      while (Date.now() < ${start}) {}
      try { lockFile(${JSON.stringify(file)}, "the race"); console.log("won"); setTimeout(() => {}, 2500); }
      catch (error) { console.log(String(error.message).includes("is in use by process") ? "lost" : "error " + error.message); }`;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
        let out = "";
        child.stdout.on("data", (chunk) => (out += chunk));
        return new Promise<string>((resolve) => child.once("exit", () => resolve(out.trim())));
      }),
    );
    expect(outcomes.sort()).toEqual(["lost", "lost", "lost", "lost", "lost", "lost", "lost", "won"]);
    expect(readdirSync(dirname(file))).toEqual(["race.lock"]);
  });
});

describe("processAlive", () => {
  it("is true for a running process and false once it has exited", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    expect(processAlive(child.pid!)).toBe(true);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(processAlive(child.pid!)).toBe(false);
  });
});
