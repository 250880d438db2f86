import { z } from "zod";
import { isoTimestamp } from "@/lib/db/sql";
import { ApiError } from "@/lib/errors";
import { reportSchema, reportSummarySchema, type Report, type ReportList } from "@/lib/schemas/reports";
import { defineRead, type Placeholder } from "./organization-read";
import { scrubContactDetails } from "./scrub";

// The report reads, as SQL that builds the API's JSON in the database (lib/data/organization-read.ts).
// Column names are the API's; timestamps are formatted as toISOString() would.

/** Most recent reports of one organization; ties on generated_at are broken by id so pages are stable. */
export const reportListRead = defineRead({
  name: "report_list",
  sql: (organizationId, limit: Placeholder<number>) => `(
    SELECT coalesce(json_agg(json_build_object(
      'id', r.id, 'scope', r.scope, 'scope_target_id', r.scope_target_id,
      'generated_at', ${isoTimestamp("r.generated_at")}, 'headline', r.headline
    ) ORDER BY r.generated_at DESC, r.id DESC), '[]'::json)
    FROM (
      SELECT id, scope, scope_target_id, generated_at, headline FROM reports
      WHERE organization_id = ${organizationId}
      ORDER BY generated_at DESC, id DESC
      LIMIT ${limit}::int
    ) r
  )`,
  result: z.array(reportSummarySchema),
  toBody: (summaries): ReportList => {
    const reports = (summaries ?? []).map((r) => ({
      ...r,
      headline: r.headline === null ? null : scrubContactDetails(r.headline),
    }));
    return { reports, count: reports.length };
  },
});

/** One report of the organization; another organization's id is as unknown as a random one. */
export const reportRead = defineRead({
  name: "report",
  sql: (organizationId, id: Placeholder<string>) => `(
    SELECT json_build_object(
      'id', r.id, 'scope', r.scope, 'scope_target_id', r.scope_target_id,
      'generated_at', ${isoTimestamp("r.generated_at")}, 'report', r.content
    )
    FROM reports r WHERE r.id = ${id}::uuid AND r.organization_id = ${organizationId}
  )`,
  result: reportSchema,
  toBody: (report): Report => {
    if (report === null) throw new ApiError("not_found", "No report with this id exists in your organization.");
    return { ...report, report: scrubContactDetails(report.report) };
  },
});
