import type { KnownContacts } from "./known-contact-matcher";
import { scrubContactDetails } from "./scrub";

// What `q` searches: a report's text exactly as the API serves it, after contact details are removed, so a
// search for an address or a handle can never tell whether it appears in a report. The database keeps the
// searchable words from it (reports.search_vector, a generated column with a GIN index).

/**
 * The rules the stored text was made by (reports.search_text_version). Raise it whenever what scrubbing removes
 * changes: at start-up the server writes the text of every report stored under a lower one again
 * (lib/data/report-search-backfill.ts), so a search never finds what a response would not show.
 */
export const SEARCH_TEXT_VERSION = 3;

/** Enough for any real report; beyond it the words would outgrow what one tsvector may hold (1 MB). */
const MAX_SEARCH_TEXT = 200_000;

/**
 * Every string value of the served content, one per line: the headline first, then every other member in key
 * order, so the text is the same whichever order the keys arrived in (an import's JSON, or jsonb's own order
 * when start-up fills in an older report). `known` holds the contact details of the report's organization.
 */
export function reportSearchText(content: unknown, known: KnownContacts): string {
  const parts: string[] = [];
  let length = 0;
  const pending: unknown[] = [scrubContactDetails(content, known)];
  while (pending.length > 0 && length < MAX_SEARCH_TEXT) {
    const value = pending.pop();
    if (typeof value === "string") {
      parts.push(value);
      length += value.length + 1;
    } else if (Array.isArray(value)) {
      // Reversed, so the pops visit members in order.
      pending.push(...[...value].reverse());
    } else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      pending.push(
        ...Object.keys(record)
          .sort(headlineFirst)
          .reverse()
          .map((key) => record[key]),
      );
    }
  }
  return parts.join("\n").slice(0, MAX_SEARCH_TEXT);
}

function headlineFirst(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "headline") return -1;
  if (b === "headline") return 1;
  return a < b ? -1 : 1;
}
