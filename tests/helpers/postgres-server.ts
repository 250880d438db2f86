import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migratePostgres, openPostgres } from "@/lib/db";
import { seedDemo } from "@/lib/demo/seed";
import { freePort } from "./server";

// A throwaway PostgreSQL cluster in a temporary directory, for tests that stop and restart the
// database or need one several processes can share. The shared server on 5432 is never touched.
// PostgreSQL refuses to run as root, so under root the cluster belongs to the `postgres` user.

export interface ThrowawayPostgres {
  port: number;
  /** Connection URL of a database on this cluster. */
  url(database?: string): string;
  start(): void;
  /** Stops at once, like a crash or a lost network: open connections are cut. */
  stop(): void;
  /** Creates a database with the schema migrated and the demo data seeded; returns its URL. */
  createSundownDatabase(name: string): Promise<string>;
  destroy(): void;
}

const PG_BIN = process.env.SUNDOWN_PG_BIN ?? "/usr/local/bin";

export async function startPostgresServer(): Promise<ThrowawayPostgres> {
  const port = await freePort();
  const base = mkdtempSync(path.join(os.tmpdir(), "sundown-pg-"));
  const dataDir = path.join(base, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(base, uid, gid);
  }
  const run = (binary: string, args: string[]) => {
    const command = path.join(PG_BIN, binary);
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
      : spawnSync(command, args, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  };
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C"]);
  const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const server: ThrowawayPostgres = {
    port,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    start: () =>
      run("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(base, "server.log"), "-w", "-t", "30", "start"]),
    stop: () => run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]),
    async createSundownDatabase(name) {
      const admin = new pg.Client({ connectionString: server.url() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      const url = server.url(name);
      await migratePostgres(url);
      const handle = openPostgres(url, 2);
      try {
        await seedDemo(handle.client);
      } finally {
        await handle.close();
      }
      return url;
    },
    destroy() {
      try {
        server.stop();
      } catch {
        // already stopped
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
  server.start();
  return server;
}
