import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { nextStartArgs } from "./start-command";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "sundown-"));
}

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the production build as `npm start` does, as a real process. Without DATABASE_URL in `env`
 * it runs on a fresh embedded database in a temporary directory.
 */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const childEnv = {} as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries({
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    SUNDOWN_DATA_DIR: env.DATABASE_URL ? undefined : tempDataDir(),
    SUNDOWN_URL: url,
    NEXTAUTH_URL: url,
    NEXTAUTH_SECRET: "test-secret-test-secret-test-secret",
    SUNDOWN_LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    // The tests sign in as the demo's people; a test of a start without the demo passes SUNDOWN_DEMO: "".
    SUNDOWN_DEMO: "1",
    ...env,
  })) {
    if (v !== undefined) childEnv[k] = v;
  }
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, nextStartArgs(port), {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d));
  child.stderr!.on("data", (d: Buffer) => (output += d));
  // Generous: a first start creates and seeds the embedded database, slow on a loaded 2-core machine.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/v1`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  if (Date.now() >= deadline) throw new Error(`server did not start in time:\n${output}`);
  return {
    url,
    port,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}
