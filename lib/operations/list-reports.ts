import { renderReport } from "@/lib/markdown/report-text";
import { REPORT_LIMIT, reportListSchema, type ReportList } from "@/lib/schemas/reports";
import { reportListExample } from "./list-reports.example";
import { defineKeyedOperation, type InputOfParameters } from "./operation";
import { pagedList } from "./paged-list";
import {
  asFilter,
  cursorParameter,
  expandParameter,
  limitParameter,
  reportScopeParameter,
  scopeTargetIdParameter,
  searchParameter,
  sinceParameter,
  untilParameter,
  requireOrderedPeriod,
} from "./parameters";

// GET /api/v1/reports and the list_reports tool: the organization's reports, newest first, a page at a time.

const parameters = {
  limit: limitParameter,
  since: asFilter(sinceParameter),
  until: asFilter(untilParameter),
  scope: asFilter(reportScopeParameter),
  scope_target_id: asFilter(scopeTargetIdParameter),
  q: asFilter(searchParameter),
  cursor: cursorParameter,
  expand: expandParameter,
};

/** The list's paging: its filters and their digest (lib/operations/paged-list.ts). */
export const reportPaging = pagedList(parameters);

/** list_reports' filters, as parsed: what its read narrows the list by, and what its cursors are bound to. */
export type ReportFilterInput = ReturnType<typeof reportPaging.filtersOf<InputOfParameters<typeof parameters>>>;

/** The list as text: one line per report, or each report in full (expand=report), and how to go on. */
export function renderReportList(list: ReportList): string {
  if (list.count === 0) return "No reports match.";
  const lines = list.reports.map((r) => {
    // expand=report: each report in full, as get_report's text writes it.
    if (r.report) return `\n${renderReport({ ...r, report: r.report })}`;
    const target = r.scope_target_id ? ` for ${r.scope_target_id}` : "";
    return `- ${r.generated_at} · ${r.scope}${target} · ${r.headline ?? "(no headline)"} · id ${r.id}`;
  });
  const cut = list.truncated ? ["The whole reports filled this page before its limit; the rest follow."] : [];
  const more = list.next_cursor
    ? [...cut, `More reports follow: call list_reports again with the same filters and cursor: ${list.next_cursor}`]
    : [];
  return [`${list.count} report${list.count === 1 ? "" : "s"}, most recent first:`, ...lines, ...more].join("\n");
}

export const listReports = defineKeyedOperation({
  operationId: "listReports",
  method: "GET",
  path: "/api/v1/reports",
  tag: "Reports",
  access: "key",
  scope: "reports:read",
  parameters,
  check: (input) => {
    // Like with like: two days as days, two instants as instants (a day's instants depend on the zone).
    requireOrderedPeriod(input);
    // Whether the cursor was made for these filters is checked once the organization's zone is known (the
    // answer's continuation): its digest holds the zone its days were counted in.
  },
  output: reportListSchema,
  statuses: [403],
  summary: "List reports",
  description:
    "Summaries of the organization's end-of-day reports, newest first (`generated_at` descending, ties by `id` descending), " +
    "optionally for a period (`since`, `until`), a scope, one lead or member (`scope_target_id`) or words in the text (`q`), " +
    "with each report's full content when asked (`expand=report`; a page of whole reports ends early at about 200 KB, says `truncated`, and `next_cursor` continues), " +
    'a page at a time. Follow `next_cursor` (also in the `Link` header, rel="next") with the same filters for the next ' +
    "page; pages are stable while new reports arrive. " +
    `\`limit\` must be a plain decimal integer from ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max}; every parameter may be given at most once; anything else, or a parameter this operation does not define, is 400 \`invalid_parameter\` naming it.`,
  brief: `report summaries, newest first, a page at a time; \`limit\` ${REPORT_LIMIT.min}–${REPORT_LIMIT.max} (default ${REPORT_LIMIT.default}), \`since\`, \`until\`, \`scope\`, \`scope_target_id\`, \`q\`, \`cursor\`, \`expand=report\``,
  returns: "Report summaries, newest first, and the cursor of the next page.",
  tool: {
    name: "list_reports",
    title: "List end-of-day reports",
    description:
      "Lists the organization's end-of-day report summaries, newest first: id, scope (org, lead or member), " +
      "scope_target_id (that lead or member, else null), generated_at and a headline. Use it to find reports, then " +
      "get_report with an id for the full content. Optional filters, combined: since and until (inclusive; a date " +
      "is that whole day in the organization's time zone, a date-time an instant), scope, scope_target_id (an id " +
      'from list_team), q (words in the text; "quoted phrases", OR, -word). ' +
      `limit: ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max}, default ${REPORT_LIMIT.default}. ` +
      'expand: "report" puts each report\'s full content in the page. ' +
      "While next_cursor is not null, call again with cursor set to it and the same filters.",
    text: renderReportList,
  },
  example: reportListExample,
});
