import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

// PGlite is one process's database: two processes opening the same directory corrupt it.
// Whoever opens the embedded database holds this lock file; a server also records the
// socket on which it takes CLI commands, so the CLI can go through it instead.

export interface LockInfo {
  pid: number;
  role: "server" | "cli";
  /** Unix socket of a running server's command channel. */
  socket?: string;
}

export interface HeldLock {
  info: LockInfo;
  update(info: Partial<LockInfo>): void;
  release(): void;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, "sundown.lock");
}

// A process killed with SIGKILL still answers kill(pid, 0) for a while. The kernel takes time to tear down
// a large heap such as PGlite's (shown as running meanwhile), then the process is a zombie until its last
// thread is gone and its parent reaps it (for ever under a parent that never reaps). A zombie
// runs no code and writes nothing, so it counts as dead; the running part is waited for by acquireLock().
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

/** Linux only (/proc); elsewhere a dying holder is waited for by acquireLock(). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return false;
  }
}

export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as LockInfo;
    return Number.isInteger(info.pid) && isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

// The lock file never exists without its content: a reader that caught it empty, between create and
// write, would take it for a dead holder's and open the database alongside its owner.
function writeLockFile(file: string, info: LockInfo, mode: "create" | "replace"): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
  try {
    if (mode === "replace") renameSync(temp, file);
    else {
      try {
        linkSync(temp, file);
      } catch (error) {
        // A filesystem without hard links: exclusive create, with its brief empty moment.
        if ((error as NodeJS.ErrnoException).code === "EEXIST") throw error;
        writeFileSync(file, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      }
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

// How long to wait for a holder to go away before refusing: enough for a process killed a moment ago to
// finish dying (signal delivery, heap teardown, being reaped), short enough to refuse a live one promptly.
const LOCK_WAIT_MS = 3_000;
const LOCK_POLL_MS = 50;

/**
 * Takes the lock, waiting up to `waitMs` for a holder that is still there; returns the holder's info if
 * it outlives the wait (a genuinely running process).
 */
export async function acquireLock(
  dataDir: string,
  role: LockInfo["role"],
  waitMs = LOCK_WAIT_MS,
): Promise<HeldLock | { heldBy: LockInfo }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const attempt = tryAcquireLock(dataDir, role);
    if (!("heldBy" in attempt) || Date.now() >= deadline) return attempt;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/** Takes the lock, or returns the live holder's info. A lock left by a dead process is taken over. */
function tryAcquireLock(dataDir: string, role: LockInfo["role"]): HeldLock | { heldBy: LockInfo } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    const info: LockInfo = { pid: process.pid, role };
    try {
      writeLockFile(file, info, "create");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(dataDir);
      if (holder && holder.pid !== process.pid) return { heldBy: holder };
      unlinkSync(file);
      continue;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      try {
        if (readLock(dataDir)?.pid === process.pid) unlinkSync(file);
      } catch {
        // Already gone: nothing to release.
      }
      process.off("exit", release);
    };
    process.on("exit", release);
    return {
      info,
      update(patch) {
        Object.assign(info, patch);
        writeLockFile(file, info, "replace");
      },
      release,
    };
  }
  throw new Error(`Could not take the database lock at ${file}.`);
}
