import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";

// The planner needs the reports table's statistics to choose between the list's order and the search index (a
// common word wants the first, a rare one the second). PostgreSQL's autovacuum keeps them; the embedded database
// has none, so without this a search for a common word there read every matching report (bench/findings.md).

const stale: Statement = {
  name: "report-statistics-stale",
  // Never analyzed, or grown by more than a fifth since: pages on disk against the pages the statistics saw.
  text: `SELECT c.reltuples < 0 OR pg_relation_size(c.oid) / current_setting('block_size')::int > 1.2 * greatest(c.relpages, 1) AS stale
    FROM pg_class c WHERE c.oid = 'reports'::regclass`,
};
const analyze: Statement = { name: "report-statistics-analyze", text: "ANALYZE reports", planEachRun: true };

/** Gathers the reports table's statistics when it has none or has grown since; true when it did. */
export async function refreshReportStatistics(): Promise<boolean> {
  const sql = await getSql();
  const [row] = await sql.rows<{ stale: boolean }>(stale, []);
  if (!row?.stale) return false;
  await sql.rows(analyze, []);
  return true;
}
