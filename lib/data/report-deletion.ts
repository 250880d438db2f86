import { getDb } from "@/lib/db";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import type { ReportScope } from "@/lib/schemas/reports";
import type { OrganizationRef } from "./organizations";
import { recordActivity, type Actor } from "./activity";
import { loadKnownContacts } from "./known-contacts";
import { lockOrganizationImports } from "./report-identity";
import { reportSubject } from "./report-subject";
import { scrubContactDetails } from "./scrub";
import { recordReportDeleted } from "./webhook-outbox";

// Deleting a report (`sundown reports delete`), and the duplicates kept from before imports were idempotent
// (`sundown reports duplicates`; prisma/migrations/20261210000000_report_identity). Every read of a report goes to
// the database, so a deleted report is gone from REST, MCP and markdown from the commit on; nothing caches it.

export interface StoredReportSummary {
  id: string;
  scope: ReportScope;
  scope_target_id: string | null;
  generated_at: string;
  /** As stored: the operator's own data, shown to the operator (contact details are removed only for the API). */
  headline: string | null;
}

interface SummaryRow {
  id: string;
  scope: ReportScope;
  scope_target_id: string | null;
  generated_at: Date;
  headline: string | null;
}

const summaryOf = (row: SummaryRow): StoredReportSummary => ({
  id: row.id,
  scope: row.scope,
  scope_target_id: row.scope_target_id,
  generated_at: row.generated_at.toISOString(),
  headline: row.headline,
});

/**
 * Deletes one report of this organization, for good; another organization's report is "not found", exactly like
 * an unknown id. When other reports were marked as repeating it, the oldest of them becomes the one its scope,
 * target and generated_at identify, so a later import matches it rather than storing the report a third time.
 * Under the organization's import lock: an import running now either sees the report or sees it gone. The
 * deletion's line in the activity trail (by `actor`) and its report.deleted event (its summary as the list served
 * it, contact details removed) are written in the same transaction.
 */
export async function deleteReport(
  organizationId: string,
  reportId: string,
  actor: Actor,
): Promise<StoredReportSummary> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockOrganizationImports(tx, organizationId);
    const [deleted] = await tx.$queryRaw<(SummaryRow & { duplicate_of: string | null })[]>`
      DELETE FROM reports WHERE id = ${reportId}::uuid AND organization_id = ${organizationId}::uuid
      RETURNING id::text, scope::text, scope_target_id::text, generated_at, headline, duplicate_of::text`;
    if (!deleted) throw new ApiError("not_found", ERROR_MESSAGES.reportNotFound);
    if (deleted.duplicate_of === null) {
      await tx.$executeRaw`
        WITH heir AS (
          SELECT id FROM reports WHERE duplicate_of = ${reportId}::uuid AND organization_id = ${organizationId}::uuid
          ORDER BY created_at, id LIMIT 1
        )
        UPDATE reports SET duplicate_of = CASE WHEN reports.id = heir.id THEN NULL ELSE heir.id END
        FROM heir WHERE reports.duplicate_of = ${reportId}::uuid AND reports.organization_id = ${organizationId}::uuid`;
    }
    const summary = summaryOf(deleted);
    await recordActivity(tx, organizationId, actor, { subject: reportSubject(summary), action: "deleted" });
    const contacts = await loadKnownContacts(tx, organizationId);
    const headline = summary.headline === null ? null : scrubContactDetails(summary.headline, contacts);
    await recordReportDeleted(tx, organizationId, { ...summary, headline });
    return summary;
  }, IN_TURN);
}

/** Room for the wait on the import lock (a minute at most) inside the transaction's own time limit. */
const IN_TURN = { maxWait: 10_000, timeout: 90_000 };

/**
 * The organization a report belongs to, for the CLI, which names a report by its bare id; the deletion itself stays
 * scoped by this organization.
 */
export async function findReportOrganization(reportId: string): Promise<OrganizationRef | null> {
  const db = await getDb();
  const report = await db.report.findUnique({
    where: { id: reportId },
    select: { organization: { select: { id: true, slug: true, name: true } } },
  });
  return report?.organization ?? null;
}

export interface DuplicateReport extends StoredReportSummary {
  /** The report it repeats: the oldest stored of those sharing its scope, target and generated_at. */
  duplicate_of: string;
  /** Whether its content is the same as that report's (a retried import), or other content. */
  same_content: boolean;
}

/** The organization's reports that repeat an earlier one, newest first. */
export async function listDuplicateReports(organizationId: string): Promise<DuplicateReport[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<(SummaryRow & { duplicate_of: string; same_content: boolean })[]>`
    SELECT r.id::text, r.scope::text, r.scope_target_id::text, r.generated_at, r.headline,
           r.duplicate_of::text, r.content = k.content AS same_content
    FROM reports r JOIN reports k ON k.id = r.duplicate_of
    WHERE r.organization_id = ${organizationId}::uuid AND r.duplicate_of IS NOT NULL
    ORDER BY r.generated_at DESC, r.id DESC`;
  return rows.map((row) => ({ ...summaryOf(row), duplicate_of: row.duplicate_of, same_content: row.same_content }));
}

/** How many duplicates each organization holds, for the operator's overview; organizations without any left out. */
export async function countDuplicateReports(): Promise<(OrganizationRef & { duplicates: number })[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<(OrganizationRef & { duplicates: bigint })[]>`
    SELECT o.id::text, o.slug, o.name, count(*) AS duplicates
    FROM reports r JOIN organizations o ON o.id = r.organization_id
    WHERE r.duplicate_of IS NOT NULL
    GROUP BY o.id, o.slug, o.name ORDER BY o.slug`;
  return rows.map((row) => ({ ...row, duplicates: Number(row.duplicates) }));
}
