import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import { knownContactsOf, knownContactsSql, memberContactsSchema } from "./known-contacts";
import { reportSearchText, SEARCH_TEXT_VERSION } from "./report-search-text";

// A report's search text is written with the report, by the rules of that day. Reports stored without one
// (before the column existed, or by a tool that wrote the table directly) match no search, and reports stored
// under older rules may match words a response no longer shows (a handle or phone number now removed); the
// server writes theirs again here at start-up. reports.search_text_version tells them apart.

const stale: Statement = {
  name: "report-search-text-stale",
  text: `SELECT id, organization_id, content FROM reports
    WHERE search_text_version IS NULL OR search_text_version < $2 LIMIT $1`,
};
const knownOfOrganizations: Statement = {
  name: "report-search-text-known-contacts",
  text: `SELECT o.id, ${knownContactsSql("o.id")} AS members FROM organizations o
    WHERE o.id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)`,
};
const fill: Statement = {
  name: "report-search-text-fill",
  text: `UPDATE reports r SET search_text = f.search_text, search_text_version = $2
    FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, search_text text)
    WHERE r.id = f.id AND (r.search_text_version IS NULL OR r.search_text_version < $2)`,
};

/**
 * Writes the search text of reports stored without one or under older rules, a batch at a time, with the
 * contact details their organization knows now. Returns how many it wrote. Safe to run on many instances at
 * once, and beside an older instance (it never writes over text of a newer version).
 */
export async function fillMissingSearchText(batchSize = 500): Promise<number> {
  const sql = await getSql();
  let filled = 0;
  for (;;) {
    const rows = await sql.rows<{ id: string; organization_id: string; content: unknown }>(stale, [
      batchSize,
      SEARCH_TEXT_VERSION,
    ]);
    if (rows.length === 0) return filled;
    const organizations = [...new Set(rows.map((row) => row.organization_id))];
    const known = new Map(
      (await sql.rows<{ id: string; members: unknown }>(knownOfOrganizations, [JSON.stringify(organizations)])).map(
        (row) => [row.id, knownContactsOf(memberContactsSchema.parse(row.members))],
      ),
    );
    const texts = rows.map((row) => ({
      id: row.id,
      search_text: reportSearchText(row.content, known.get(row.organization_id)!),
    }));
    await sql.rows(fill, [JSON.stringify(texts), SEARCH_TEXT_VERSION]);
    filled += rows.length;
    if (rows.length < batchSize) return filled;
  }
}
