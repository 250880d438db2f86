import { enqueueWebhookPing, requeueWebhookDelivery } from "@/lib/data/webhook-deliveries";
import { takePushBudget } from "./push-limit";

// Pushes a person asks for, from the settings page and `sundown webhooks` alike: each draws on the organization's
// budget (lib/webhooks/push-limit.ts) before it queues anything (lib/data/webhook-deliveries.ts).

/** A `ping` to one endpoint, on or off; delivered like any event. */
export async function sendWebhookPing(organizationId: string, endpointId: string) {
  await takePushBudget(organizationId);
  return enqueueWebhookPing(organizationId, endpointId);
}

/** Sends a delivery again, now, freshly signed; refused for an endpoint that is off. */
export async function redeliverWebhook(organizationId: string, deliveryId: string) {
  await takePushBudget(organizationId);
  return requeueWebhookDelivery(organizationId, deliveryId);
}
