import { getDb } from "@/lib/db";

// How long webhook history is kept: attempts, and messages with nothing left to deliver (their deliveries and
// attempts with them), 30 days, as long as the settings page's usage charts look back. Without it both grow with
// every event for ever (issue 34). Pruned by the delivery side (lib/webhooks/deliver.ts), at most once an hour per
// instance, in bounded statements: a backlog of old rows goes over several runs rather than in one long delete.

export const WEBHOOK_RETENTION_DAYS = 30;

/** Rows of each kind one run deletes at most. */
const PRUNE_BATCH = 10_000;

/** Deletes what is older than the retention; returns how many attempts and messages went. */
export async function pruneWebhookHistory(): Promise<{ attempts: number; messages: number }> {
  const db = await getDb();
  const attempts = await db.$executeRaw`
    DELETE FROM webhook_attempts WHERE id IN (
      SELECT id FROM webhook_attempts
      WHERE attempted_at < now() - ${WEBHOOK_RETENTION_DAYS}::int * interval '1 day'
      LIMIT ${PRUNE_BATCH}::int
    )`;
  const messages = await db.$executeRaw`
    DELETE FROM webhook_messages WHERE id IN (
      SELECT m.id FROM webhook_messages m
      WHERE m.created_at < now() - ${WEBHOOK_RETENTION_DAYS}::int * interval '1 day'
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id AND d.state = 'pending')
      LIMIT ${PRUNE_BATCH}::int
    )`;
  return { attempts, messages };
}
