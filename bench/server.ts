// Builds and runs the production server (`next start`) for the bench, and times its cold start.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "@/tests/helpers/server";
import { NEXT_BIN, nextStartArgs } from "@/tests/helpers/start-command";

export const ROOT = path.resolve(import.meta.dirname, "..");

/** The server's session secret: production with DATABASE_URL requires one, at build time (pages are prerendered) and at start. */
const BENCH_NEXTAUTH_SECRET = "bench-secret-bench-secret-bench-secret";

/** Sundown itself; the bench's other Next.js project is the anchor (bench/anchor). */
export const ANCHOR_DIR = "bench/anchor";

export function buildExists(distDir: string, projectDir = "."): boolean {
  return existsSync(path.join(ROOT, projectDir, distDir, "BUILD_ID"));
}

/**
 * `next build` into its own dist directory, so the bench never collides with other builds. Next adds
 * `<distDir>/types/**` to tsconfig.json's include on every build with a new dist directory; the
 * bench puts the file back as it was, so running it leaves the checkout clean.
 */
export function buildServer(distDir: string, projectDir = "."): void {
  const tsconfig = path.join(ROOT, projectDir, "tsconfig.json");
  const original = readFileSync(tsconfig, "utf8");
  try {
    const result = spawnSync(process.execPath, [NEXT_BIN, "build", projectDir], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        SUNDOWN_DIST_DIR: distDir,
        NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? BENCH_NEXTAUTH_SECRET,
      },
    });
    if (result.status !== 0) throw new Error(`next build failed (exit ${result.status ?? result.signal})`);
  } finally {
    if (readFileSync(tsconfig, "utf8") !== original) writeFileSync(tsconfig, original);
  }
}

export interface ServerOptions {
  distDir: string;
  /** Everything the server needs beyond the basics: database, Redis, rate limit, log level. */
  env: Record<string, string | undefined>;
  /** Where the server's stdout and stderr go (a file, so reading them costs the bench nothing). */
  logFile: string;
  /** Node flags for the server beyond those of `npm start`, e.g. --cpu-prof (which NODE_OPTIONS does not accept). */
  nodeArgs?: string[];
  /** The Next.js project to start: Sundown (the default) or ANCHOR_DIR. */
  projectDir?: string;
  /** The request that answers once the server is ready, and its status: Sundown's public root by default. */
  ready?: ReadyCheck;
}

export interface ReadyCheck {
  path: string;
  status: number;
  headers?: Record<string, string>;
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Spawn to the first ready answer (200 on /api/v1 for Sundown), in milliseconds. */
  coldStartMs: number;
  stop(): Promise<void>;
}

/** Starts `next start` on a free port and waits for the first ready answer, polling every 10 ms. */
export async function startBenchServer(options: ServerOptions): Promise<RunningServer> {
  const ready = options.ready ?? { path: "/api/v1", status: 200 };
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {} as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries({
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    SUNDOWN_URL: url,
    NEXTAUTH_URL: url,
    NEXTAUTH_SECRET: BENCH_NEXTAUTH_SECRET,
    NEXT_TELEMETRY_DISABLED: "1",
    SUNDOWN_DIST_DIR: options.distDir,
    ...options.env,
  })) {
    if (v !== undefined) env[k] = v;
  }
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, "a");
  const started = performance.now();
  const child = spawn(
    process.execPath,
    nextStartArgs(port, { nodeFlags: options.nodeArgs, projectDir: options.projectDir }),
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", log, log],
    },
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = started + 120_000;
  let coldStartMs = Number.NaN;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server exited during start-up (${child.exitCode ?? child.signalCode}); see ${options.logFile}`,
      );
    }
    try {
      const response = await fetch(`${url}${ready.path}`, { headers: ready.headers });
      await response.arrayBuffer();
      if (response.status === ready.status) {
        coldStartMs = performance.now() - started;
        break;
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (Number.isNaN(coldStartMs)) {
    await stopChild(child, exited);
    throw new Error(`the server did not answer ${ready.status} on ${ready.path} within 120 s; see ${options.logFile}`);
  }
  return { url, pid: child.pid!, coldStartMs, stop: () => stopChild(child, exited) };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // SIGTERM lets Next close cleanly (and lets --cpu-prof write its profile); SIGKILL only if it hangs.
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
