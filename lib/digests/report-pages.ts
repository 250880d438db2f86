import { cursorParameter } from "@/lib/operations/parameters";
import type { ReportFilterInput } from "@/lib/operations/table";
import { REPORT_LIMIT, type ReportSummary } from "@/lib/schemas/reports";
import type { OperationSource } from "./source";

// Walking list_reports page by page for the digests that read more than one page: the same calls
// an agent makes, so the same scope check, rate limit and cursors apply.

interface SummaryWalk {
  /** At most `max` summaries, newest first. */
  reports: ReportSummary[];
  /** The cursor right after the last of them when more reports match, else null. */
  next_cursor: string | null;
}

/**
 * Up to `max` summaries of the reports matching `filters`, newest first, from the start or from `after` (a
 * next_cursor for the same filters). The last page asks for just what is missing, so next_cursor continues
 * exactly after the last summary returned.
 */
export async function walkSummaries(
  source: OperationSource,
  filters: ReportFilterInput,
  max: number,
  after: string | null = null,
): Promise<SummaryWalk> {
  const reports: ReportSummary[] = [];
  let cursor = after;
  while (reports.length < max) {
    const page = await source.answer("list_reports", {
      ...filters,
      limit: Math.min(REPORT_LIMIT.max, max - reports.length),
      cursor: cursor === null ? undefined : cursorParameter.parse(cursor),
    });
    reports.push(...page.reports);
    cursor = page.next_cursor;
    if (cursor === null) break;
  }
  return { reports, next_cursor: cursor };
}
