import { z } from "zod";
import type { WebhookMessageType } from "./webhook-events";
import { timestamp, uuid } from "./common";
import { reportSummarySchema } from "./reports";
import { teamMemberSchema } from "./team";

// The bodies Sundown POSTs to webhook endpoints (the Standard Webhooks payload shape), declared once: the OpenAPI
// document's `webhooks` and docs/webhooks.md are checked against these. lib/webhooks/body.ts renders them.

/** The envelope every webhook body shares; `data` is the event's. */
function webhookEvent<const Type extends string, Data extends z.ZodType>(type: Type, data: Data) {
  return z.object({
    id: uuid.meta({
      description:
        "The event's id, also sent as the `webhook-id` header. The same on every attempt and redelivery of this event: deduplicate by it.",
    }),
    type: z.literal(type),
    timestamp: timestamp.meta({
      description:
        "When the event happened. Not when this attempt was sent: that is the `webhook-timestamp` header, which the signature covers.",
    }),
    organization_id: uuid.meta({ description: "The organization the event belongs to." }),
    data,
  });
}

const reportPublishedEventSchema = webhookEvent(
  "report.published",
  z.object({
    report: reportSummarySchema,
    url: z.url().meta({
      description: "The full report: `GET` it with an API key that has `reports:read`.",
      example: "https://sundown.example.com/api/v1/reports/5d0e0003-0001-4003-8001-00000000ac3e",
    }),
  }),
).meta({
  id: "ReportPublishedEvent",
  description:
    "A report was stored. `data.report` is the report's summary exactly as `GET /api/v1/reports` lists it, contact details removed.",
});

const memberUpdatedEventSchema = webhookEvent("member.updated", z.object({ member: teamMemberSchema })).meta({
  id: "MemberUpdatedEvent",
  description:
    "A person of the roster was added or changed, one event per person. `data.member` is the person exactly as `GET /api/v1/team` shows them, contact details never included; a deactivation is a change with `active` false.",
});

const reportUpdatedEventSchema = webhookEvent(
  "report.updated",
  z.object({
    report: reportSummarySchema,
    url: z.url().meta({
      description: "The report as it reads now: `GET` it with an API key that has `reports:read`.",
      example: "https://sundown.example.com/api/v1/reports/5d0e0003-0001-4003-8001-00000000ac3e",
    }),
  }),
).meta({
  id: "ReportUpdatedEvent",
  description:
    "A stored report was replaced with other content; its id stays. `data.report` is its summary as `GET /api/v1/reports` lists it after the change, contact details removed.",
});

const reportDeletedEventSchema = webhookEvent(
  "report.deleted",
  z.object({
    report: reportSummarySchema,
  }),
).meta({
  id: "ReportDeletedEvent",
  description:
    "A report was deleted: `GET /api/v1/reports/{id}` answers 404 from now on. `data.report` is its summary as it was listed before the deletion, contact details removed.",
});

const pingEventSchema = webhookEvent(
  "ping",
  z.object({
    endpoint_id: uuid.meta({ description: "The endpoint this test delivery was sent to." }),
    message: z.string(),
  }),
).meta({
  id: "PingEvent",
  description: "A test delivery, sent on demand to one endpoint whatever events it subscribes to.",
});

/** The body of each type a delivery can have: every event of the catalog, and ping. */
export const WEBHOOK_PAYLOADS = {
  "report.published": reportPublishedEventSchema,
  "report.updated": reportUpdatedEventSchema,
  "report.deleted": reportDeletedEventSchema,
  "member.updated": memberUpdatedEventSchema,
  ping: pingEventSchema,
} as const satisfies Record<WebhookMessageType, z.ZodType>;

/** Any webhook body, by its `type`. */
export const webhookPayloadSchema = z.discriminatedUnion("type", [
  reportPublishedEventSchema,
  reportUpdatedEventSchema,
  reportDeletedEventSchema,
  memberUpdatedEventSchema,
  pingEventSchema,
]);

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
