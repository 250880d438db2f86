import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withDatabase } from "./seeded-postgres";
import { ROOT, freePort } from "./server";

// A throwaway PgBouncer in transaction mode in front of a PostgreSQL server, as a managed host's pooled
// connection string is: scripts/start-pgbouncer.sh (the same one CI uses) on a free port, in a temporary
// directory of its own. The shared PostgreSQL behind it is not touched.

export interface ThrowawayPgBouncer {
  port: number;
  /** The pooled URL of a database on the server behind it. */
  url(database: string): string;
  /** Stops it (cutting its clients, as a pooler restart does) and removes its directory. */
  stop(): Promise<void>;
}

/** Whether Debian's pgbouncer is on this machine (/usr/sbin is on root's PATH, not always on others'). */
export function hasPgBouncer(): boolean {
  return ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].some((binary) => existsSync(binary));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts a PgBouncer in front of the server `upstreamUrl` points at (its host must be 127.0.0.1). */
export async function startPgBouncer(upstreamUrl: string): Promise<ThrowawayPgBouncer> {
  const port = await freePort();
  const upstreamPort = new URL(upstreamUrl).port || "5432";
  const dir = mkdtempSync(path.join(os.tmpdir(), "sundown-pgbouncer-"));
  execFileSync(path.join(ROOT, "scripts/start-pgbouncer.sh"), [String(port), upstreamPort, dir], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/usr/bin` },
  });
  const pid = Number(readFileSync(path.join(dir, "pgbouncer.pid"), "utf8").trim());
  return {
    port,
    url: (database) => withDatabase(`postgresql://postgres@127.0.0.1:${port}/`, database),
    async stop() {
      if (isRunning(pid)) process.kill(pid, "SIGTERM");
      const deadline = Date.now() + 10_000;
      while (isRunning(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (isRunning(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
