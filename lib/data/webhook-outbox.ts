import type { Prisma } from "@/lib/generated/prisma/client";

// The write side of the webhook outbox, called inside the transaction that stores what the events are about, so a
// crash neither loses an event (the reports are there, so is the row) nor invents one (no reports, no row). One
// statement and one row per batch, naming the endpoints subscribed at that moment; nothing at all when none is.
// Turning the row into messages and deliveries is the delivery side's work (lib/webhooks/relay.ts), off this path:
// an import with two endpoints costs one more INSERT of an id array (bench/webhooks.ts).

type Transaction = Prisma.TransactionClient;

export async function recordReportsPublished(tx: Transaction, organizationId: string, reportIds: string[]) {
  if (reportIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_outbox (organization_id, type, subject_ids, endpoint_ids)
    SELECT ${organizationId}::uuid, 'report.published', ${reportIds}::uuid[], array_agg(id ORDER BY id)
    FROM webhook_endpoints
    WHERE organization_id = ${organizationId}::uuid AND disabled_at IS NULL AND 'report.published' = ANY(events)
    HAVING count(*) > 0`;
}

/** member.updated for each person added or changed (a deactivation too), in the change's transaction. */
export async function recordMembersUpdated(tx: Transaction, organizationId: string, memberIds: string[]) {
  if (memberIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_outbox (organization_id, type, subject_ids, endpoint_ids)
    SELECT ${organizationId}::uuid, 'member.updated', ${memberIds}::uuid[], array_agg(id ORDER BY id)
    FROM webhook_endpoints
    WHERE organization_id = ${organizationId}::uuid AND disabled_at IS NULL AND 'member.updated' = ANY(events)
    HAVING count(*) > 0`;
}
