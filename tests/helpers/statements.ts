import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { vi } from "vitest";
import { getDbHandle } from "@/lib/db";

// What a piece of work asks of the database, seen at the driver (below Prisma and lib/db/sql.ts alike, so a
// query from anywhere counts), and what those statements touch, asked of the database itself.

export interface SentStatement {
  text: string;
  values: unknown[];
  /** A prepared statement's name (PostgreSQL may reuse a generic plan for it); absent for one planned every time. */
  name?: string;
}

/** Runs `work` and returns its result with every statement it sent to the database. */
export async function captureStatements<T>(
  work: () => Promise<T>,
): Promise<{ result: T; statements: SentStatement[] }> {
  const { kind } = await getDbHandle();
  // On PostgreSQL, the connection's query: every statement passes there, through the pool or in a transaction.
  const spy = kind === "postgres" ? vi.spyOn(pg.Client.prototype, "query") : vi.spyOn(PGlite.prototype, "query");
  try {
    const result = await work();
    return { result, statements: spy.mock.calls.map((args) => sentStatement(args as unknown[])) };
  } finally {
    spy.mockRestore();
  }
}

function sentStatement([first, second]: unknown[]): SentStatement {
  if (typeof first === "string") return { text: first, values: (second as unknown[] | undefined) ?? [] };
  const config = first as { text: string; values?: unknown[]; name?: string };
  return { text: config.text, values: config.values ?? [], ...(config.name ? { name: config.name } : {}) };
}

interface PlanNode {
  "Relation Name"?: string;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/**
 * The tables a statement read rows from when run again, as sent, under EXPLAIN ANALYZE: plan nodes the
 * executor never entered (a CASE branch not taken, a subquery for no row) have zero loops and do not count.
 */
export async function tablesRead(statement: SentStatement): Promise<string[]> {
  const { sql } = await getDbHandle();
  const [row] = await sql.rows<{ "QUERY PLAN": unknown }>(
    {
      name: `explain-${Math.random().toString(36).slice(2)}`,
      text: `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
    },
    statement.values,
  );
  const raw = row!["QUERY PLAN"];
  const [{ Plan }] = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const read = new Set<string>();
  const visit = (node: PlanNode) => {
    if ((node["Actual Loops"] ?? 0) === 0) return;
    if (node["Relation Name"]) read.add(node["Relation Name"]);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(Plan);
  return [...read].sort();
}
