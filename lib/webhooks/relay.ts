import { loadKnownContacts } from "@/lib/data/known-contacts";
import { scrubContactDetails } from "@/lib/data/scrub";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ReportSummary } from "@/lib/schemas/reports";
import type { WebhookEventType } from "@/lib/schemas/webhook-events";
import { insertMessages } from "./messages";

// Expands outbox rows (lib/data/webhook-outbox.ts) into messages and deliveries, a chunk per transaction: the row is
// taken FOR UPDATE SKIP LOCKED, so two instances never expand the same part, and shortened (or deleted) with the
// messages written, so a crash in between leaves the chunk to expand again and never half-expanded. A chunk makes
// at most CHUNK_DELIVERIES deliveries, so no transaction here holds the database for long (on the embedded database,
// one transaction holds it for everyone: issue 34 found a 2,000-report import to 480 endpoints blocking every
// organization's API for 59 s), and after each chunk the row goes to the back of the queue (turn_at), so an
// import to many endpoints takes turns with everything queued after it.

type Transaction = Prisma.TransactionClient;

/** The most deliveries one transaction makes: its reports times the endpoints, at least one report. */
export const CHUNK_DELIVERIES = 1_000;

/** Expands up to `limit` chunks, each from the row whose turn it is. Returns the deliveries made. */
export async function relayOutbox(limit = 4): Promise<number> {
  const db = await getDb();
  let deliveries = 0;
  for (let i = 0; i < limit; i++) {
    const made = await db.$transaction(relayChunk, { maxWait: 10_000, timeout: 60_000 });
    if (made === undefined) break;
    deliveries += made;
  }
  return deliveries;
}

async function relayChunk(tx: Transaction): Promise<number | undefined> {
  const [row] = await tx.$queryRaw<
    {
      id: string;
      organization_id: string;
      type: WebhookEventType;
      subject_ids: string[];
      endpoint_ids: string[];
      data: Record<string, unknown>[] | null;
      remaining: number;
    }[]
  >`SELECT id, organization_id, type, endpoint_ids, data,
           subject_ids[1:greatest(1, ${CHUNK_DELIVERIES}::int / greatest(cardinality(endpoint_ids), 1))] AS subject_ids,
           cardinality(subject_ids) - greatest(1, ${CHUNK_DELIVERIES}::int / greatest(cardinality(endpoint_ids), 1))
             AS remaining
    FROM webhook_outbox
    ORDER BY turn_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
  if (!row) return undefined;
  const chunk = row.subject_ids.length;
  // An event about what is gone (report.deleted) brought its data, one entry per subject; the others are read as the
  // reports are now.
  const data = row.data ? row.data.slice(0, chunk) : await storedReportData(tx, row.organization_id, row.subject_ids);
  const made = await insertMessages(tx, row.organization_id, row.type, data, row.endpoint_ids);
  if (row.remaining > 0)
    await tx.$executeRaw`
      UPDATE webhook_outbox SET subject_ids = subject_ids[${chunk + 1}::int:], turn_at = now(),
        data = ${row.data ? JSON.stringify(row.data.slice(chunk)) : null}::json
      WHERE id = ${row.id}::uuid`;
  else await tx.$executeRaw`DELETE FROM webhook_outbox WHERE id = ${row.id}::uuid`;
  return made;
}

/**
 * report.published's and report.updated's data for each report, in the order given: its summary exactly as GET
 * /api/v1/reports lists it (the headline without the organization's contact details), and the path to read it in
 * full. A report deleted since is left out.
 */
async function storedReportData(tx: Transaction, organizationId: string, reportIds: string[]) {
  // One after the other: a transaction's queries share its one connection.
  const rows = await tx.report.findMany({
    where: { organizationId, id: { in: reportIds } },
    select: { id: true, scope: true, scopeTargetId: true, generatedAt: true, headline: true },
  });
  const contacts = await loadKnownContacts(tx, organizationId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return reportIds.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const report: ReportSummary = {
      id: r.id,
      scope: r.scope,
      scope_target_id: r.scopeTargetId,
      generated_at: r.generatedAt.toISOString(),
      headline: r.headline === null ? null : scrubContactDetails(r.headline, contacts),
    };
    return [{ report, url: `/api/v1/reports/${r.id}` }];
  });
}
