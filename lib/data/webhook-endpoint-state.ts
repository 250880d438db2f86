import type { Prisma } from "@/lib/generated/prisma/client";

type Transaction = Prisma.TransactionClient;

/** Why an endpoint is off: a person turned it off, the receiver answered 410 Gone, or it failed for 3 days. */
export type DisabledReason = "manual" | "gone" | "failing";

/**
 * Turns an endpoint off and gives up what was waiting for it (it stays in the deliveries list, where it can be
 * redelivered once the endpoint is on again): nothing is attempted behind an endpoint's back.
 */
export async function disableEndpoint(tx: Transaction, endpointId: string, reason: DisabledReason, at: Date) {
  await tx.webhookEndpoint.update({
    where: { id: endpointId },
    data: { disabledAt: at, disabledReason: reason },
    select: { id: true },
  });
  await tx.webhookDelivery.updateMany({
    where: { endpointId, state: "pending" },
    data: { state: "failed", nextAttemptAt: null, leaseUntil: null },
  });
}
