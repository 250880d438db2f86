import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";

// The API's hot path (key lookup, report list, one report, roster, last-use write) bypasses Prisma's query builder:
// measured on PostgreSQL, a Prisma query cost ~0.5–1 ms of CPU where the same read as one prepared
// statement costs ~0.1 ms (bench/findings.md). Prisma keeps everything else: writes, settings, CLI.

/** A fixed SQL text with a name: PostgreSQL parses and plans it once per connection, not per request. */
export interface Statement {
  readonly name: string;
  readonly text: string;
  /**
   * Plan it for its values on every run instead of preparing it once: for a statement whose best plan depends
   * on them, where PostgreSQL's generic plan would be wrong for some (a full-text search: a rare word wants the
   * search index, a common one the list's order).
   */
  readonly planEachRun?: boolean;
}

export interface SqlReader {
  rows<T>(statement: Statement, values: readonly unknown[]): Promise<T[]>;
}

/**
 * Runs statements on the PostgreSQL pool Prisma's adapter also uses: as named prepared statements, or
 * unnamed ones (parsed every time) where a transaction-mode pooler cannot keep prepared statements.
 */
export function poolReader(pool: Pool, { prepared }: { prepared: boolean }): SqlReader {
  return {
    async rows<T>(statement: Statement, values: readonly unknown[]) {
      const name = prepared && !statement.planEachRun ? statement.name : undefined;
      const result = await pool.query({ name, text: statement.text, values: [...values] });
      return result.rows as T[];
    },
  };
}

/**
 * Runs statements on the embedded database. PGlite has one session and queues queries itself, and
 * Prisma's transactions there hold it exclusively, so a read never lands inside someone's transaction.
 */
export function pgliteReader(pglite: PGlite): SqlReader {
  return {
    async rows<T>(statement: Statement, values: readonly unknown[]) {
      return (await pglite.query<T>(statement.text, [...values])).rows;
    },
  };
}

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds, "Z"), formatted by the database. */
export function isoTimestamp(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
