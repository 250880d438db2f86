import { isoTimestamp } from "@/lib/db/sql";
import { ApiError } from "@/lib/errors";
import type { Report, ReportList, ReportSummary } from "@/lib/schemas/reports";
import { defineRead } from "./organization-read";
import { scrubContactDetails } from "./scrub";

// The report reads, as SQL that builds the API's JSON in the database (lib/data/organization-read.ts).
// Column names are the API's; timestamps are formatted as toISOString() would.

/** Most recent reports of one organization; ties on generated_at are broken by id so pages are stable. */
export const reportListRead = defineRead<[limit: number], ReportList>({
  name: "report_list",
  json: ({ organizationId, arg }) => `(
    SELECT coalesce(json_agg(json_build_object(
      'id', r.id, 'scope', r.scope, 'scope_target_id', r.scope_target_id,
      'generated_at', ${isoTimestamp("r.generated_at")}, 'headline', r.headline
    ) ORDER BY r.generated_at DESC, r.id DESC), '[]'::json)
    FROM (
      SELECT id, scope, scope_target_id, generated_at, headline FROM reports
      WHERE organization_id = ${organizationId}
      ORDER BY generated_at DESC, id DESC
      LIMIT ${arg(0)}::int
    ) r
  )`,
  shape: (json) => {
    const reports = (json as ReportSummary[]).map((r) => ({
      ...r,
      headline: r.headline === null ? null : scrubContactDetails(r.headline),
    }));
    return { reports, count: reports.length };
  },
});

/** One report of the organization; another organization's id is as unknown as a random one. */
export const reportRead = defineRead<[id: string], Report>({
  name: "report",
  json: ({ organizationId, arg }) => `(
    SELECT json_build_object(
      'id', r.id, 'scope', r.scope, 'scope_target_id', r.scope_target_id,
      'generated_at', ${isoTimestamp("r.generated_at")}, 'report', r.content
    )
    FROM reports r WHERE r.id = ${arg(0)}::uuid AND r.organization_id = ${organizationId}
  )`,
  shape: (json) => {
    if (json === null) throw new ApiError("not_found", "No report with this id exists in your organization.");
    const report = json as Report;
    return { ...report, report: scrubContactDetails(report.report) };
  },
});
