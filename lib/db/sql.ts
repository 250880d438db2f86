import { createHash } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";
import { log } from "@/lib/log";
import type { StatementNaming } from "@/lib/env";

// The API's hot path (key lookup, report list, one report, roster, last-use write) bypasses Prisma's query builder:
// a Prisma query costs several times the CPU of the same read as one statement (bench/findings.md). Prisma keeps
// everything else: writes, settings, CLI.

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
  /** Whether statements are sent named (prepared once per connection) now. */
  readonly named: boolean;
}

export interface PoolReader extends SqlReader {
  /**
   * Sends every statement unnamed from now on; `reason` is logged once, at `level`: info for a pooler detected at
   * start (expected, on every start of such a deployment: alerting on warnings must not fire for it), warn for a
   * statement lost that no detection foresaw.
   */
  stopNaming(reason: string, level: "info" | "warn"): void;
}

// What PostgreSQL answers when a named statement is not on the server connection the pooler picked
// (26000 "prepared statement … does not exist") or another client's is (42P05 "… already exists").
const LOST_STATEMENT_CODES = new Set(["26000", "42P05"]);

function isLostStatement(error: unknown): boolean {
  return LOST_STATEMENT_CODES.has((error as { code?: string } | null)?.code ?? "");
}

// The name carries a digest of the text: behind a pooler, or while two versions of the app share a database
// during a deploy, a server connection may hold a statement of this name prepared by someone else, and it
// must never be one with other SQL.
const preparedNames = new WeakMap<Statement, string>();

function preparedName(statement: Statement): string {
  let name = preparedNames.get(statement);
  if (!name) {
    name = `${statement.name}:${createHash("sha256").update(statement.text).digest("hex").slice(0, 12)}`;
    preparedNames.set(statement, name);
  }
  return name;
}

/**
 * Runs statements on the PostgreSQL pool Prisma's adapter also uses. A named statement that the server
 * connection turns out not to keep is the first sign of a transaction-mode pooler: with `auto` or `named`
 * the reader stops naming statements and runs the failed read again unnamed (a read, so safe to repeat),
 * and no request fails for it.
 */
export function poolReader(pool: Pool, { naming }: { naming: StatementNaming }): PoolReader {
  let named = naming !== "unnamed";
  const reader: PoolReader = {
    get named() {
      return named;
    },
    stopNaming(reason, level) {
      if (!named) return;
      named = false;
      log(level, "sending database statements unnamed from now on", { reason });
    },
    rows<T>(statement: Statement, values: readonly unknown[]) {
      const name = named && !statement.planEachRun ? preparedName(statement) : undefined;
      // One continuation for the rows and the retry rather than async/await: every keyed request reads through
      // here, and each await is a promise more per request (tests/integration/admission-allocations.test.ts).
      return pool.query({ name, text: statement.text, values: [...values] }).then(
        (result) => result.rows as T[],
        (error: unknown) => {
          if (!name || !isLostStatement(error)) throw error;
          reader.stopNaming(
            `a prepared statement was lost between statements (${(error as Error).message}): a transaction-mode ` +
              "pooler is in front of PostgreSQL",
            "warn",
          );
          return pool.query({ text: statement.text, values: [...values] }).then((result) => result.rows as T[]);
        },
      );
    },
  };
  return reader;
}

/**
 * Runs statements on the embedded database. PGlite has one session and queues queries itself, and
 * Prisma's transactions there hold it exclusively, so a read never lands inside someone's transaction.
 */
export function pgliteReader(pglite: PGlite): SqlReader {
  return {
    named: false,
    async rows<T>(statement: Statement, values: readonly unknown[]) {
      return (await pglite.query<T>(statement.text, [...values])).rows;
    },
  };
}

/**
 * A timestamp as UTC wall-clock time, for JSON the database builds: turned into JSON, a timestamp without time zone
 * is ISO 8601 whatever the session's DateStyle or TimeZone ("2026-11-21T18:30:00", with as many fraction digits as
 * it has), and PostgreSQL writes it for a fraction of to_char's cost per row (bench/findings.md). isoFromUtcJson
 * makes it toISOString()'s form.
 */
export function utcTimestamp(column: string): string {
  return `(${column} AT TIME ZONE 'UTC')`;
}

/** What utcTimestamp's column is as JSON: seconds, then up to six fraction digits. */
export const UTC_JSON_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

/** utcTimestamp's JSON text as toISOString() writes the instant: milliseconds (cut), then "Z". */
export function isoFromUtcJson(text: string): string {
  return `${text.slice(0, 19)}.${text.slice(20, 23).padEnd(3, "0")}Z`;
}
