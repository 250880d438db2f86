import { reportPage, type ReportPage } from "@/lib/data/reports";
import type { Answer } from "./answer";
import { reportPaging } from "./list-reports";
import { pageContinuation } from "./page-continuation";

// GET /api/v1/reports and the list_reports tool (lib/operations/list-reports.ts): one read of a page, finished with
// its cursor once the key (its organization and time zone) is known.

export const listReportsAnswer = {
  read: ({ limit, cursor, expand, ...input }) =>
    reportPage({ limit, filters: reportPaging.filtersOf(input), after: cursor, expand }),
  finish: (page: ReportPage, input, key) => ({
    reports: page.reports,
    ...pageContinuation(reportPaging, { items: page.reports, more: page.more, cut: page.cut }, input, key),
  }),
} satisfies Answer<"list_reports">;
