import { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";

// The events an endpoint can subscribe to: the one list, feeding the type, the zod enum, the settings form, the CLI,
// docs/webhooks.md and the OpenAPI document's `webhooks`. Each names the scope a key would need to read what the
// event carries: an endpoint is a standing read of the organization, so it receives no more than such a key could.
// `ping` is sent on demand to one endpoint, never subscribed to.
export const WEBHOOK_EVENTS = {
  "report.published": {
    scope: "reports:read",
    description:
      "A report was stored (by `sundown reports import`, `POST /ingest/v1/reports` or an upload in Settings → Reports).",
  },
  "report.updated": {
    scope: "reports:read",
    description:
      "A stored report was replaced by an import with other content (`--replace`, `?replace=true`, or the upload's replace option). Once per replacement; an import of the same content again sends nothing.",
  },
  "report.deleted": {
    scope: "reports:read",
    description:
      "A report was deleted (`sundown reports delete`, or Settings → Reports): reading it answers 404 from now on.",
  },
  "member.updated": {
    scope: "team:read",
    description:
      "A person of the roster was added or changed (Settings → Team, or `sundown members import`); a deactivation is a change with `active` false.",
  },
} as const satisfies Record<string, { scope: Scope; description: string }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** What a delivery's `type` may be: a subscribable event, or the test delivery. */
export type WebhookMessageType = WebhookEventType | "ping";

/** The test delivery's `data.message`. */
export const PING_MESSAGE = "A test delivery from Sundown: this endpoint receives and verifies.";

/** How every delivery introduces itself. */
export const WEBHOOK_USER_AGENT = "Sundown-Webhooks/1.0";

/** At least one event, each known, each once, in catalog order. */
export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `events are ${WEBHOOK_EVENT_TYPES.join(", ")}` }))
  .min(1, "choose at least one event")
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e)));
