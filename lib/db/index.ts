import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { getEnv, type StatementNaming } from "@/lib/env";
import { createPgliteClient, createPostgresClient, type Db } from "./client";
import { acquireLock, type HeldLock, type LockInfo } from "./lock";
import { applyMigrations, readMigrations, type SqlConnection } from "./migrate";
import { dialedPort, poolerFromServerPort, poolerFromUrl, SERVER_PORT_QUERY, type PoolerVerdict } from "./pooler";
import { pgliteReader, poolReader, type SqlReader } from "./sql";

export type { Db } from "./client";

export interface DbHandle {
  kind: "postgres" | "embedded";
  client: Db;
  /** Prepared-statement reads for the API's hot path, on the same connections as `client`. */
  sql: SqlReader;
  /** Where the embedded database lives (absolute path or memory://). */
  dataDir?: string;
  lock?: HeldLock;
  /**
   * Whether PostgreSQL is reached through a transaction-mode pooler: asked once (at most one round trip),
   * and the hot-path statements follow the answer. The embedded database never is.
   */
  detectPooler(): Promise<PoolerVerdict>;
  close(): Promise<void>;
}

export class EmbeddedDbBusyError extends Error {
  constructor(readonly holder: LockInfo) {
    super(`The embedded database is in use by process ${holder.pid} (${holder.role}).`);
  }
}

// One handle per process, shared by every module instance the framework creates; `__sundownDbOpen` is the same
// handle once it has opened, so the hot path can use it without a promise (withSql).
const registry = globalThis as typeof globalThis & { __sundownDb?: Promise<DbHandle>; __sundownDbOpen?: DbHandle };

/** The process's database client, opened on first use. */
export async function getDb(): Promise<Db> {
  return (await getDbHandle()).client;
}

export function getDbHandle(): Promise<DbHandle> {
  if (!registry.__sundownDb) {
    const opening: Promise<DbHandle> = openConfiguredDb("server").then(
      (handle) => {
        // A handle closed (or replaced) while it was opening is not the process's.
        if (registry.__sundownDb === opening) registry.__sundownDbOpen = handle;
        return handle;
      },
      (error: unknown) => {
        if (registry.__sundownDb === opening) registry.__sundownDb = undefined;
        throw error;
      },
    );
    registry.__sundownDb = opening;
  }
  return registry.__sundownDb;
}

/** The process's hot-path reader (lib/db/sql.ts), on the same database as getDb(). */
export async function getSql(): Promise<SqlReader> {
  return (await getDbHandle()).sql;
}

/**
 * `read` run with the process's hot-path reader: at once when the database is open, without the promises getSql
 * makes on every call (every keyed request reads through here: tests/integration/admission-allocations.test.ts).
 */
export function withSql<T>(read: (sql: SqlReader) => Promise<T>): Promise<T> {
  const open = registry.__sundownDbOpen;
  return open ? read(open.sql) : getDbHandle().then((handle) => read(handle.sql));
}

/** Installs an already-open handle as the process's database (the CLI, tests). */
export function installDbHandle(handle: DbHandle): void {
  registry.__sundownDb = Promise.resolve(handle);
  registry.__sundownDbOpen = handle;
}

export async function closeDb(): Promise<void> {
  const pending = registry.__sundownDb;
  registry.__sundownDb = undefined;
  registry.__sundownDbOpen = undefined;
  if (pending) await (await pending).close();
}

export function openConfiguredDb(role: LockInfo["role"]): Promise<DbHandle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    return Promise.resolve(openPostgres(env.DATABASE_URL, env.DATABASE_POOL_MAX, env.DATABASE_PREPARED_STATEMENTS));
  }
  return openEmbedded(env.dataDir, role);
}

export function openPostgres(url: string, poolMax = 5, naming: StatementNaming = "auto"): DbHandle {
  const { client, pool } = createPostgresClient({ url, poolMax, timeoutMs: getEnv().DATABASE_TIMEOUT_MS });
  const sql = poolReader(pool, { naming });
  let verdict: Promise<PoolerVerdict> | undefined;
  const probe = async (): Promise<PoolerVerdict> => {
    const found = poolerFromUrl(url) ?? (await probeServerPort(url, sql));
    if (found.pooled && naming === "auto") sql.stopNaming(`a connection pooler: ${found.reason}`, "info");
    return found;
  };
  return {
    kind: "postgres",
    client,
    sql,
    detectPooler() {
      verdict ??= probe().catch((error: unknown) => {
        verdict = undefined;
        throw error;
      });
      return verdict;
    },
    async close() {
      await client.$disconnect();
      await pool.end();
    },
  };
}

/**
 * Opens (creating on first use) the embedded database: lock and migrations. Its demo data on first start is the
 * opener's to add (lib/demo/first-start.ts): the database knows nothing of what is stored in it.
 */
export async function openEmbedded(dataDir: string, role: LockInfo["role"]): Promise<DbHandle> {
  const inMemory = dataDir.startsWith("memory://");
  let lock: HeldLock | undefined;
  if (!inMemory) {
    const attempt = await acquireLock(dataDir, role);
    if ("heldBy" in attempt) throw new EmbeddedDbBusyError(attempt.heldBy);
    lock = attempt;
  }
  try {
    // Loaded only here: a PostgreSQL deployment never pays the time and memory of PGlite's modules at start.
    const { PGlite } = await import("@electric-sql/pglite");
    const pglite = await PGlite.create(inMemory ? dataDir : path.join(dataDir, "pgdata"));
    await applyMigrations(pgliteConnection(pglite));
    const client = await createPgliteClient(pglite);
    return {
      kind: "embedded",
      client,
      sql: pgliteReader(pglite),
      dataDir,
      lock,
      detectPooler: () => Promise.resolve({ pooled: false, reason: "the embedded database" }),
      async close() {
        await client.$disconnect();
        await pglite.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function probeServerPort(url: string, sql: SqlReader): Promise<PoolerVerdict> {
  const [row] = await sql.rows<{ port: number }>(
    { name: "server-port", text: SERVER_PORT_QUERY, planEachRun: true },
    [],
  );
  return row ? poolerFromServerPort(url, row.port) : { pooled: false, reason: `port ${dialedPort(url)}` };
}

export function pgliteConnection(pglite: PGlite): SqlConnection {
  return {
    exec: async (sql) => void (await pglite.exec(sql)),
    query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
  };
}

/**
 * Names of migrations not yet applied to a PostgreSQL database. Through the SQL reader, not Prisma: at
 * start-up this is the only query, and Prisma's first query loads its WebAssembly query compiler.
 */
export async function pendingMigrations(sql: SqlReader): Promise<string[]> {
  const all = await readMigrations();
  try {
    const rows = await sql.rows<{ migration_name: string }>(
      {
        name: "pending-migrations",
        text: `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      },
      [],
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    return all.map((m) => m.name).filter((name) => !applied.has(name));
  } catch {
    return all.map((m) => m.name);
  }
}

/** Applies pending migrations to a PostgreSQL database over a dedicated connection. */
export async function migratePostgres(url: string): Promise<string[]> {
  const { Client } = await import("pg");
  // Generous: PgBouncer waits server_login_retry (15 s) before it tries a database whose login just failed, as
  // one does that `db migrate` has just created (lib/db/create-database.ts).
  const pg = new Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
  await pg.connect();
  try {
    return await applyMigrations({
      exec: async (sql) => void (await pg.query(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await pg.query(sql, params)).rows as T[],
    });
  } finally {
    await pg.end();
  }
}
