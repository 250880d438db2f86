import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import type { AllowEntry } from "@/lib/webhook-allow-list";
import { checkEndpointUrl } from "./endpoint-url";
import { resolveWebhookTarget, WebhookTargetError } from "./resolve-target";

/**
 * An endpoint URL as it may be saved: the URL rules (https, no credentials, no internal names), then its host
 * resolved and every address checked. Either failing is an invalid_parameter saying which rule, for the settings
 * form and the CLI, before they store it (lib/data/webhook-endpoints.ts). The same check runs again at every attempt
 * (lib/webhooks/deliver.ts).
 */
export async function checkWebhookTarget(
  input: string,
  allowHosts: readonly AllowEntry[] = getEnv().SUNDOWN_WEBHOOK_ALLOW_HOSTS,
): Promise<URL> {
  const checked = checkEndpointUrl(input, allowHosts);
  if ("error" in checked) throw new ApiError("invalid_parameter", checked.error);
  try {
    await resolveWebhookTarget(checked.url, allowHosts);
  } catch (error) {
    if (error instanceof WebhookTargetError) throw new ApiError("invalid_parameter", error.message);
    throw error;
  }
  return checked.url;
}
