import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { PING_MESSAGE } from "@/lib/schemas/webhook-events";
import { findEndpoint } from "./webhook-endpoints";

// An endpoint's deliveries as founders and leads see them in Settings and operators with `sundown webhooks`: its
// attempts, a ping, a redelivery. Scoped by the organization like the endpoints (lib/data/webhook-endpoints.ts).
// Sending them is lib/webhooks' work, which also keeps the budget pings and redeliveries draw on
// (lib/webhooks/pushes.ts).

/** The organization a delivery belongs to, for `sundown webhooks redeliver <delivery-id>`. */
export async function findWebhookDeliveryOrganization(deliveryId: string) {
  const db = await getDb();
  const row = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: { message: { select: { organization: { select: { id: true, slug: true, name: true } } } } },
  });
  return row?.message.organization ?? null;
}

/** A test delivery to one endpoint, on or off, whatever it subscribes to (a test needs no subscription). */
export async function enqueueWebhookPing(
  organizationId: string,
  endpointId: string,
): Promise<{ messageId: string; deliveryId: string }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, organizationId, endpointId);
    const message = await tx.webhookMessage.create({
      data: { organizationId, type: "ping", data: { endpoint_id: endpoint.id, message: PING_MESSAGE } },
      select: { id: true },
    });
    const delivery = await tx.webhookDelivery.create({
      data: { messageId: message.id, endpointId: endpoint.id, organizationId },
      select: { id: true },
    });
    return { messageId: message.id, deliveryId: delivery.id };
  });
}

export interface WebhookAttemptItem {
  id: string;
  deliveryId: string;
  messageId: string;
  type: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The start of the receiver's answer as stored (at most 1,024 bytes; lib/webhooks/send.ts). */
  responseBody: string | null;
  /** The delivery's state now: delivered, failed (given up), or pending (another attempt is scheduled). */
  state: "pending" | "delivered" | "failed";
  nextAttemptAt: Date | null;
}

export const ATTEMPTS_LISTED = 100;

/** An endpoint's latest attempts, newest first (each attempt of each delivery is one line). */
export async function listWebhookAttempts(
  organizationId: string,
  endpointId: string,
  limit = ATTEMPTS_LISTED,
): Promise<WebhookAttemptItem[]> {
  const db = await getDb();
  await db.$transaction((tx) => findEndpoint(tx, organizationId, endpointId));
  const rows = await db.webhookAttempt.findMany({
    where: { endpointId, endpoint: { organizationId } },
    select: {
      id: true,
      attempt: true,
      attemptedAt: true,
      statusCode: true,
      durationMs: true,
      error: true,
      responseBody: true,
      delivery: {
        select: { id: true, state: true, nextAttemptAt: true, message: { select: { id: true, type: true } } },
      },
    },
    orderBy: [{ attemptedAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(({ delivery, ...row }) => ({
    ...row,
    deliveryId: delivery.id,
    messageId: delivery.message.id,
    type: delivery.message.type,
    state: delivery.state,
    nextAttemptAt: delivery.state === "pending" ? delivery.nextAttemptAt : null,
  }));
}

/**
 * Makes a delivery due again, now: the same message (same webhook-id, so a receiver that already has it can tell),
 * to be signed afresh when sent. Refused for an endpoint that is off: turn it on first.
 */
export async function requeueWebhookDelivery(organizationId: string, deliveryId: string) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, organizationId },
      select: { id: true, endpoint: { select: { disabledAt: true } } },
    });
    if (!delivery) throw new ApiError("not_found", "No webhook delivery with this id exists in this organization.");
    if (delivery.endpoint.disabledAt)
      throw new ApiError("conflict", "This endpoint is disabled; enable it before redelivering to it.");
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { state: "pending", nextAttemptAt: new Date(), leaseUntil: null },
      select: { id: true },
    });
    return { deliveryId: delivery.id };
  });
}
