import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import { reportSearchText } from "./report-search-text";

// Reports stored without search text (before the column existed, or by a tool that wrote the table directly)
// match no search until it is written here; the server runs this at start-up.

const missing: Statement = {
  name: "report-search-text-missing",
  text: `SELECT id, content FROM reports WHERE search_text IS NULL LIMIT $1`,
};
const fill: Statement = {
  name: "report-search-text-fill",
  text: `UPDATE reports r SET search_text = f.search_text
    FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, search_text text)
    WHERE r.id = f.id AND r.search_text IS NULL`,
};

/**
 * Writes the search text of reports stored without one (before the column existed, or by a tool that wrote
 * the table directly), a batch at a time. Returns how many it filled. Safe to run on many instances at once.
 */
export async function fillMissingSearchText(batchSize = 500): Promise<number> {
  const sql = await getSql();
  let filled = 0;
  for (;;) {
    const rows = await sql.rows<{ id: string; content: unknown }>(missing, [batchSize]);
    if (rows.length === 0) return filled;
    const texts = rows.map((row) => ({ id: row.id, search_text: reportSearchText(row.content) }));
    await sql.rows(fill, [JSON.stringify(texts)]);
    filled += rows.length;
    if (rows.length < batchSize) return filled;
  }
}
