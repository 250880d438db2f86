import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { keyOverlapSchema } from "@/lib/schemas/key-overlap";
import { webhookEventsSchema } from "@/lib/schemas/webhook-events";
import { singleField } from "./form-fields";

// The webhooks settings forms as the server reads them. The URL's rules (https, a public address) are not
// repeated here: createWebhookEndpoint applies them, the same for this page and the CLI, and its refusal is
// shown next to the field.

const endpointId = uuid.transform((id) => id.toLowerCase());

export const createEndpointInput = z.object({
  url: z.string().trim().min(1, "Enter the URL that will receive the webhooks."),
  events: webhookEventsSchema,
});

export const endpointInput = z.object({ endpointId });

export const setEnabledInput = z.object({
  endpointId,
  // The button says what it does; anything but these two is not a request this page sends.
  enabled: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export const rollSecretInput = z.object({ endpointId, overlap: keyOverlapSchema });

export const redeliverInput = z.object({ deliveryId: uuid.transform((id) => id.toLowerCase()) });

export function createEndpointFields(formData: FormData) {
  return { url: singleField(formData, "url"), events: formData.getAll("events") };
}
