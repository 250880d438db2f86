import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";
import type { Report, ReportContent, ReportList } from "@/lib/schemas/reports";
import { scrubContactDetails } from "./scrub";

const summarySelect = {
  id: true,
  scope: true,
  scopeTargetId: true,
  generatedAt: true,
  headline: true,
} as const;

/** Most recent reports of one organization; ties on generated_at are broken by id so pages are stable. */
export async function listReports(organizationId: string, limit: number): Promise<ReportList> {
  const db = await getDb();
  const rows = await db.report.findMany({
    where: { organizationId },
    select: summarySelect,
    orderBy: [{ generatedAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  const reports = rows.map((r) => ({
    id: r.id,
    scope: r.scope,
    scope_target_id: r.scopeTargetId,
    generated_at: r.generatedAt.toISOString(),
    headline: r.headline === null ? null : scrubContactDetails(r.headline),
  }));
  return { reports, count: reports.length };
}

/** One report of the organization; another organization's id is as unknown as a random one. */
export async function getReportOrThrow(organizationId: string, id: string): Promise<Report> {
  const db = await getDb();
  const row = await db.report.findFirst({
    where: { id, organizationId },
    select: { id: true, scope: true, scopeTargetId: true, generatedAt: true, content: true },
  });
  if (!row) throw new ApiError("not_found", "No report with this id exists in your organization.");
  return {
    id: row.id,
    scope: row.scope,
    scope_target_id: row.scopeTargetId,
    generated_at: row.generatedAt.toISOString(),
    report: scrubContactDetails(row.content as ReportContent),
  };
}
