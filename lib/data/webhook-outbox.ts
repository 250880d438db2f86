import type { Prisma } from "@/lib/generated/prisma/client";
import type { ReportSummary } from "@/lib/schemas/reports";
import type { TeamMember } from "@/lib/schemas/team";
import type { WebhookEventType } from "@/lib/schemas/webhook-events";

// The write side of the webhook outbox, called inside the transaction that stores what the events are about, so a
// crash neither loses an event (the reports are there, so is the row) nor invents one (no reports, no row). One
// statement and one row per batch, naming the endpoints subscribed at that moment; nothing at all when none is.
// Turning the row into messages and deliveries is the delivery side's work (lib/webhooks/relay.ts), off this path:
// an import with two endpoints costs one more INSERT of an id array (bench/webhooks.ts).

type Transaction = Prisma.TransactionClient;

/** The events about stored reports: the relay reads each report's summary when it expands the row. */
type StoredReportEvent = Extract<WebhookEventType, "report.published" | "report.updated">;

/** report.published (added by an import) or report.updated (replaced by one) for each of these reports. */
export async function recordReportEvents(
  tx: Transaction,
  organizationId: string,
  type: StoredReportEvent,
  reportIds: string[],
) {
  if (reportIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_outbox (organization_id, type, subject_ids, endpoint_ids)
    SELECT ${organizationId}::uuid, ${type}, ${reportIds}::uuid[], array_agg(id ORDER BY id)
    FROM webhook_endpoints
    WHERE organization_id = ${organizationId}::uuid AND disabled_at IS NULL AND ${type} = ANY(events)
    HAVING count(*) > 0`;
}

/**
 * report.deleted for one report, its summary (contact details removed, as the list served it) written into the row:
 * when the relay gets to it, the report is gone.
 */
export async function recordReportDeleted(tx: Transaction, organizationId: string, summary: ReportSummary) {
  await tx.$executeRaw`
    INSERT INTO webhook_outbox (organization_id, type, subject_ids, endpoint_ids, data)
    SELECT ${organizationId}::uuid, 'report.deleted', ARRAY[${summary.id}::uuid], array_agg(id ORDER BY id),
           ${JSON.stringify([{ report: summary }])}::json
    FROM webhook_endpoints
    WHERE organization_id = ${organizationId}::uuid AND disabled_at IS NULL AND 'report.deleted' = ANY(events)
    HAVING count(*) > 0`;
}

/**
 * member.updated for each person added or changed (a deactivation too), in the change's transaction: the person as
 * GET /api/v1/team shows them at that moment, written into the row (as report.deleted's summary is), so that an
 * event carries the change it announces even when another follows before the relay gets to it; expanded in chunks
 * and delivered in turns like every event, so a large roster import cannot hold the database.
 */
export async function recordMembersUpdated(tx: Transaction, organizationId: string, members: TeamMember[]) {
  if (members.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_outbox (organization_id, type, subject_ids, endpoint_ids, data)
    SELECT ${organizationId}::uuid, 'member.updated', ${members.map((member) => member.id)}::uuid[],
           array_agg(id ORDER BY id), ${JSON.stringify(members.map((member) => ({ member })))}::json
    FROM webhook_endpoints
    WHERE organization_id = ${organizationId}::uuid AND disabled_at IS NULL AND 'member.updated' = ANY(events)
    HAVING count(*) > 0`;
}
