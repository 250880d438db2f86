import type { Prisma } from "@/lib/generated/prisma/client";
import type { WebhookMessageType } from "@/lib/schemas/webhook-events";

// Messages (one per event, its id the webhook-id) and their deliveries (one per endpoint), as the relay makes them
// from the outbox (a ping makes one on demand: lib/data/webhook-deliveries.ts).

type Transaction = Prisma.TransactionClient;

/**
 * One message per item of `data` and a delivery of each to every endpoint in `endpointIds` that is still on:
 * one statement. `data` holds each event's `data`, links as paths (lib/webhooks/body.ts).
 */
export async function insertMessages(
  tx: Transaction,
  organizationId: string,
  type: WebhookMessageType,
  data: Record<string, unknown>[],
  endpointIds: string[],
): Promise<number> {
  if (data.length === 0 || endpointIds.length === 0) return 0;
  return tx.$executeRaw`
    WITH receiving AS (
      SELECT id FROM webhook_endpoints
      WHERE id = ANY(${endpointIds}::uuid[]) AND organization_id = ${organizationId}::uuid AND disabled_at IS NULL
    ), messages AS (
      INSERT INTO webhook_messages (organization_id, type, data)
      SELECT ${organizationId}::uuid, ${type}, d.value
      FROM json_array_elements(${JSON.stringify(data)}::json) WITH ORDINALITY AS d(value, n)
      WHERE EXISTS (SELECT 1 FROM receiving)
      ORDER BY d.n
      RETURNING id
    )
    INSERT INTO webhook_deliveries (message_id, endpoint_id, organization_id)
    SELECT m.id, r.id, ${organizationId}::uuid FROM messages m CROSS JOIN receiving r`;
}
