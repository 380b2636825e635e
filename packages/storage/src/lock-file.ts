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

/** How long a process waits for another one that is taking over a stale lock (ms). */
const TAKEOVER_WAIT_MS = 2_000;

/**
 * Takes `file` for this process (it holds the pid): `what` must have one owner process. A lock left
 * by a process that no longer runs is taken over. Returns the release function.
 *
 * The lock appears whole or not at all: the pid is written to a file of this process's own and
 * hard-linked to `file` (a link fails when `file` exists), so another process never reads a lock
 * file that exists but does not hold its pid yet, and never takes such a file for a stale one.
 * A stale lock is removed only by the process that holds `<file>.takeover` (taken the same way), after
 * it read the stale pid again, so several processes that find the same stale lock at once remove it
 * once and then race for it as for a free one. Left open: a process killed inside that takeover leaves
 * `<file>.takeover` behind; it is removed as stale too, and two processes doing that at the same moment
 * (a crash inside a takeover followed by two simultaneous starts) could both end up holding `file`.
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
  const own = `${file}.${process.pid}`;
  const takeover = `${file}.takeover`;
  writeFileSync(own, String(process.pid), { mode: 0o600 });
  try {
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    for (;;) {
      if (linked(own, file)) return () => rmSync(file, { force: true });
      const holder = readPid(file);
      if (holder && processAlive(holder)) {
        throw new Error(`${what} is in use by process ${holder} (one process at a time); stop it or use another data directory`);
      }
      if (linked(own, takeover)) {
        try {
          if (readPid(file) === holder) rmSync(file, { force: true });
        } finally {
          rmSync(takeover, { force: true });
        }
        continue;
      }
      const takingOver = readPid(takeover);
      if (takingOver !== null && !(takingOver && processAlive(takingOver))) rmSync(takeover, { force: true });
      else if (Date.now() > deadline) throw new Error(`could not lock ${what} (${file}): another process is taking it over`);
      else sleepSync(5);
    }
  } finally {
    rmSync(own, { force: true });
  }
}

/** Hard-links `from` to `to`; false when `to` exists. */
function linked(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** The pid a lock file holds: null when the file is gone, 0 when it holds no pid (never a live process). */
function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Blocks this thread for `ms` (the lock is taken synchronously, before anything else runs). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
