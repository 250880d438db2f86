// The machine and set-up a result was taken on, so numbers are never read without their context.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./server";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  next: string;
  /** 1-minute load average just before the bench started its own work. */
  loadBefore: number;
  /** The commit measured, marked when the working tree had uncommitted changes. */
  commit: string;
}

function currentCommit(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " (with uncommitted changes)" : ""}`;
  } catch {
    return "unknown";
  }
}

function packageVersion(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }
    ).version;
  } catch {
    return "unknown";
  }
}

export function describeMachine(): Machine {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    next: packageVersion("next"),
    loadBefore: os.loadavg()[0]!,
    commit: currentCommit(),
  };
}

export function loadAverage(): number {
  return os.loadavg()[0]!;
}

/** The rate-limit store the server will pick, following lib/ratelimit/stores.ts's order of preference. */
export function limiterStore(env: NodeJS.ProcessEnv): string {
  if (env.UPSTASH_REDIS_REST_URL) return "Upstash Redis (UPSTASH_REDIS_REST_URL)";
  if (env.REDIS_URL) return "Redis (REDIS_URL)";
  return "in-process memory";
}
