import { createWebhookEndpoint } from "@/lib/data/webhook-endpoints";
import { checkWebhookTarget } from "@/lib/webhooks/target";

/** Adds an endpoint as the settings page and the CLI do: its URL checked first, then stored. */
export async function addWebhookEndpoint(
  input: Omit<Parameters<typeof createWebhookEndpoint>[0], "url"> & { url: string },
) {
  return createWebhookEndpoint({ ...input, url: await checkWebhookTarget(input.url) });
}
