import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { EmbeddedDbBusyError, openEmbedded } from "@/lib/db";
import { acquireLock } from "@/lib/db/lock";
import { ROOT, tempDataDir } from "../helpers/server";

// `kill -9` on a server running the embedded database, then start it again at once: the new process
// must open the database, not refuse it as "in use" by the one that just died. A process that is
// really running it is still refused, with its pid.

const HOLDER = path.join(ROOT, "tests/helpers/embedded-holder.ts");
const SLOW = 120_000;

const started: ChildProcess[] = [];
const dataDirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = tempDataDir();
  dataDirs.push(dir);
  return dir;
}

/**
 * Starts a process holding the embedded database in `dataDir` (opening it, or with `lockOnly` just taking
 * its lock) and resolves with its pid once it holds it. With `unreapedParent`, its parent is a process that
 * never reaps children (`sleep`, as a careless container entrypoint would be), so once killed it stays a zombie.
 */
function startHolder(dataDir: string, { lockOnly = false, unreapedParent = false } = {}): Promise<number> {
  const command = [process.execPath, "--import", "tsx", HOLDER, dataDir, lockOnly ? "lock" : "database"];
  const quoted = command.map((part) => `'${part}'`).join(" ");
  const child = unreapedParent
    ? spawn("sh", ["-c", `${quoted} & exec sleep 600`], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] })
    : spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  started.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const ready = /ready (\d+)/.exec(output);
      if (ready) resolve(Number(ready[1]));
    });
    child.on("exit", (code) => reject(new Error(`the holder exited (${code}) before it held the database: ${output}`)));
  });
}

it(
  "opens at once after the server holding it was killed with SIGKILL",
  async () => {
    const dataDir = newDataDir();
    const pid = await startHolder(dataDir);
    process.kill(pid, "SIGKILL");
    const handle = await openEmbedded(dataDir, "server");
    try {
      expect(handle.lock?.info.pid).toBe(process.pid);
      // The demo data the dead server wrote is all there.
      expect(await handle.client.organization.count()).toBe(2);
    } finally {
      await handle.close();
    }
  },
  SLOW,
);

// Waiting alone would not do here: the zombie answers kill(pid, 0) for as long as its parent lives.
it(
  "takes the lock after a SIGKILL even when the holder's parent never reaps it",
  async () => {
    const dataDir = newDataDir();
    const pid = await startHolder(dataDir, { lockOnly: true, unreapedParent: true });
    process.kill(pid, "SIGKILL");
    const lock = await acquireLock(dataDir, "server");
    expect(lock).toMatchObject({ info: { pid: process.pid, role: "server" } });
    if ("release" in lock) lock.release();
  },
  SLOW,
);

it(
  "still refuses a running holder, naming its pid",
  async () => {
    const dataDir = newDataDir();
    const pid = await startHolder(dataDir, { lockOnly: true });
    const refusal = await openEmbedded(dataDir, "server").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EmbeddedDbBusyError);
    expect((refusal as EmbeddedDbBusyError).holder).toMatchObject({ pid, role: "server" });
    expect((refusal as Error).message).toBe(`The embedded database is in use by process ${pid} (server).`);
  },
  SLOW,
);
