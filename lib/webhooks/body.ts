import type { WebhookPayload } from "@/lib/schemas/webhooks";

// What a receiver gets: the Standard Webhooks payload shape, `{ type, timestamp, data }`, with the event's id
// (also sent as the webhook-id header) and organization. Stored events keep their links as paths ("/api/v1/…"):
// the public URL is added when the body is made, from the server's configuration.

export interface StoredMessage {
  id: string;
  organizationId: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

export function renderBody(message: StoredMessage, publicUrl: string): string {
  return JSON.stringify({
    id: message.id,
    type: message.type,
    timestamp: message.createdAt.toISOString(),
    organization_id: message.organizationId,
    data: absoluteLinks(message.data, publicUrl),
    // The envelope's fields are those of lib/schemas/webhooks.ts, no more, no fewer.
  } satisfies Record<keyof WebhookPayload, unknown>);
}

function absoluteLinks(data: unknown, publicUrl: string): unknown {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return data;
  const entries = Object.entries(data).map(([key, value]) =>
    key === "url" && typeof value === "string" && value.startsWith("/")
      ? [key, `${publicUrl.replace(/\/+$/, "")}${value}`]
      : [key, value],
  );
  return Object.fromEntries(entries);
}
