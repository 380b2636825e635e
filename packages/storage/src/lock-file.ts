import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";

/**
 * True when a process with this pid runs (on this machine), also when it belongs to another user.
 *
 * @example
 * ```ts
 * if (!processAlive(Number(readFileSync(pidFile, "utf8")))) rmSync(pidFile);
 * ```
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes `file` for this process (it holds the pid): `what` must have one owner process. A lock left
 * by a process that no longer runs is taken over. Returns the release function.
 *
 * The lock appears whole or not at all: the pid is written to a file of this process's own and
 * hard-linked to `file` (a link fails when `file` exists), so another process never reads a lock
 * file that exists but does not hold its pid yet, and never takes such a file for a stale one.
 * Left open: two processes that find the same stale lock at the same moment may both remove it; the
 * second removal can then take the first one's new lock (a crash followed by two simultaneous starts).
 *
 * @param file - the lock file's path
 * @param what - what the lock protects, for the error message
 * @returns a function that removes the lock
 *
 * @example
 * ```ts
 * const release = lockFile(".slotgate-data/db.lock", "the embedded database");
 * // … serve …
 * release();
 * ```
 */
export function lockFile(file: string, what: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    const own = `${file}.${process.pid}`;
    try {
      writeFileSync(own, String(process.pid), { mode: 0o600 });
      linkSync(own, file);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
        throw new Error(`${what} is in use by process ${pid} (one process at a time); stop it or use another data directory`);
      }
      rmSync(file, { force: true });
    } finally {
      rmSync(own, { force: true });
    }
  }
  throw new Error(`could not lock ${what} (${file})`);
}
