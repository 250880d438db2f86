import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "./server";

/** The operator CLI, as `npx sundown` runs it. */
export const CLI = path.join(ROOT, "bin/sundown.mjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sundown args…` as a real process to its end, with exactly `env` (each test decides how much of the
 * runner's own environment the operator's shell would have). `input` is its stdin, closed once written.
 */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  { input = "", cwd = ROOT }: { input?: string; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    // A CLI that hangs fails the test instead of stalling the run.
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/**
 * The runner's environment with `env` over it, less the runner's DATABASE_URL unless `env` sets one: a run
 * without one opens the embedded database (SUNDOWN_DATA_DIR), never the database the tests run against.
 */
export function operatorEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // A first run on a new embedded database seeds the demo the tests use (SUNDOWN_DEMO: "" for one without it); a
  // PostgreSQL database gets it only from `seed --demo`, as an operator's does.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...(env.DATABASE_URL ? {} : { SUNDOWN_DEMO: "1" }), ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return childEnv;
}
