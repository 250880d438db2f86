// The orchestrator's side of the load generator process (bench/load-worker.ts).
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { LoadCommand, LoadResult } from "./load-worker";
import { ROOT } from "./server";

export interface LoadWorker {
  pid: number;
  run(command: Omit<LoadCommand, "id">): Promise<LoadResult>;
  close(): Promise<void>;
}

export function startLoadWorker(): LoadWorker {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/load-worker.ts")], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const pending = new Map<number, { resolve(result: LoadResult): void; reject(error: Error): void }>();
  let nextId = 1;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const result = JSON.parse(line) as LoadResult;
    // JSON has no NaN: an empty run's percentiles come back as null.
    result.p50Ms ??= Number.NaN;
    result.p99Ms ??= Number.NaN;
    const waiter = pending.get(result.id);
    pending.delete(result.id);
    if (result.error) waiter?.reject(new Error(`load generator: ${result.error}`));
    else waiter?.resolve(result);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the load generator exited (${code})`));
    pending.clear();
  });
  return {
    pid: child.pid!,
    run(command) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.stdin!.write(`${JSON.stringify({ ...command, id })}\n`);
      });
    },
    async close() {
      child.stdin!.end();
      await exited;
    },
  };
}
