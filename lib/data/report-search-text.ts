import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import { scrubContactDetails } from "./scrub";

// What `q` searches: a report's text exactly as the API serves it, after contact details are removed, so a
// search for an address or a handle can never tell whether it appears in a report. The database keeps the
// searchable words from it (reports.search_vector, a generated column with a GIN index).

/** Enough for any real report; beyond it the words would outgrow what one tsvector may hold (1 MB). */
export const MAX_SEARCH_TEXT = 200_000;

/** Every string value of the served content, one per line: the headline and the items' text. */
export function reportSearchText(content: unknown): string {
  const parts: string[] = [];
  let length = 0;
  const pending: unknown[] = [scrubContactDetails(content)];
  while (pending.length > 0 && length < MAX_SEARCH_TEXT) {
    const value = pending.pop();
    if (typeof value === "string") {
      parts.push(value);
      length += value.length + 1;
    } else if (value !== null && typeof value === "object") {
      // Reversed, so the pops visit members in document order.
      pending.push(...Object.values(value as object).reverse());
    }
  }
  return parts.join("\n").slice(0, MAX_SEARCH_TEXT);
}

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
