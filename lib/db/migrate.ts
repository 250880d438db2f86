import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT } from "@/lib/project-root";

// Applies prisma/migrations without Prisma's native engine, recording each one in `_prisma_migrations`
// exactly as `prisma migrate deploy` does, so either tool can take over from the other.

export interface SqlConnection {
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");

// Arbitrary but fixed: serialises concurrent migrators (several deploys, several instances).
const MIGRATION_LOCK_ID = 72_707_369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// The migrations ship with the build through next.config.ts's outputFileTracingIncludes; without the ignore
// hints, this dynamic path makes the bundler trace (and deploy) the whole project.
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(/* turbopackIgnore: true */ dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/* turbopackIgnore: true */ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * Applies every migration not yet applied, each in its own transaction. Returns the names applied.
 *
 * Each step holds the lock for its own transaction only (`pg_advisory_xact_lock`): behind a transaction-mode
 * pooler a session lock would be taken on one server connection and its release sent to another, leaving it
 * held for good, while a transaction stays on one server connection from BEGIN to COMMIT.
 */
export async function applyMigrations(conn: SqlConnection, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await readMigrations());
  await inLockedTransaction(conn, () => conn.exec(CREATE_MIGRATIONS_TABLE));
  const done: string[] = [];
  for (const migration of all) {
    const applied = await inLockedTransaction(conn, async () => {
      const [row] = await conn.query<{ checksum: string }>(
        `SELECT checksum FROM "_prisma_migrations"
         WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        [migration.name],
      );
      if (row) {
        if (row.checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was changed after it was applied (checksum mismatch).`);
        }
        return false;
      }
      try {
        await conn.exec(migration.sql);
      } catch (error) {
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await conn.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      return true;
    });
    if (applied) done.push(migration.name);
  }
  return done;
}

/** Runs `work` in one transaction that first takes the migrations' lock (released by COMMIT or ROLLBACK). */
async function inLockedTransaction<T>(conn: SqlConnection, work: () => Promise<T>): Promise<T> {
  await conn.exec("BEGIN");
  try {
    await conn.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    const result = await work();
    await conn.exec("COMMIT");
    return result;
  } catch (error) {
    await conn.exec("ROLLBACK");
    throw error;
  }
}
