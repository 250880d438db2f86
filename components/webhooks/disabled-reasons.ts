import type { DisabledReason } from "@/lib/data/webhook-endpoint-state";
import { FAILING_DISABLES_AFTER_MS } from "@/lib/webhooks/schedule";

// Why an endpoint is off, as its owner needs to read it: who or what turned it off decides what to fix first.
// One wording for the endpoint's status and the activity trail's line.

const FAILING_DAYS = Math.round(FAILING_DISABLES_AFTER_MS / 86_400_000);

/** Why Sundown itself turned an endpoint off (lib/webhooks/deliver.ts records it as the trail's detail). */
export const AUTOMATIC_REASONS: Record<Exclude<DisabledReason, "manual">, string> = {
  gone: "the receiver answered 410 Gone",
  failing: `after failing for ${FAILING_DAYS} days`,
};

export const DISABLED_STATUS: Record<DisabledReason, string> = {
  gone: `Disabled: ${AUTOMATIC_REASONS.gone}`,
  failing: `Disabled ${AUTOMATIC_REASONS.failing}`,
  manual: "Disabled by a person",
};
