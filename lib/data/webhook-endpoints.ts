import { generateWebhookSecretPair, openSecretIfAble } from "@/lib/auth/webhook-secret";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { WebhookEventType } from "@/lib/schemas/webhook-events";
import { makersOf, recordActivity, type Actor } from "./activity";
import { disableEndpoint, type DisabledReason } from "./webhook-endpoint-state";

// Webhook endpoints of an organization, as founders and leads manage them in Settings and operators with
// `sundown webhooks`. Every query is scoped by the organization: another organization's endpoint is "not found",
// exactly like an unknown id. Every change lands in the endpoints' activity trail. Their deliveries (attempts, pings,
// redeliveries) are lib/data/webhook-deliveries.ts; what sends them is lib/webhooks.

type Transaction = Prisma.TransactionClient;

export interface WebhookEndpointItem {
  id: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: DisabledReason | null;
  /** The first failed attempt since the last delivery, while it keeps failing. */
  failingSince: Date | null;
  /** While a rolled secret's overlap lasts: when the old secret stops signing. */
  previousSecretExpiresAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
}

export interface CreatedWebhookEndpoint extends WebhookEndpointItem {
  /** The signing secret (`whsec_…`). Returned here once and never again. */
  secret: string;
}

const ENDPOINT_NOT_FOUND = "No webhook endpoint with this id exists in this organization.";

/** Endpoints an organization may have: each import fans out to every one, so their number bounds that work. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 20;

export const UNOPENABLE_OLD_SECRET =
  "The current secret cannot sign during an overlap: it was sealed under an earlier server secret (NEXTAUTH_SECRET " +
  "changed, or auth-secret was deleted), so it cannot be opened. Roll with no overlap: deliveries to this endpoint " +
  "are failing already, and the new secret signs from now on.";

export const TOO_MANY_ENDPOINTS = `This organization already has ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints, the most it may have: delete one before adding another.`;

const ITEM_SELECT = {
  id: true,
  url: true,
  events: true,
  disabledAt: true,
  disabledReason: true,
  failingSince: true,
  previousSecretExpiresAt: true,
  createdAt: true,
  createdBy: { select: { member: { select: { name: true } } } },
} as const satisfies Prisma.WebhookEndpointSelect;

type ItemRow = Prisma.WebhookEndpointGetPayload<{ select: typeof ITEM_SELECT }>;

/** An endpoint's lines in the organization's activity trail (lib/data/activity.ts): the endpoint by its URL. */
export const WEBHOOK_ENDPOINT_SUBJECT = "webhook_endpoint";

/** What the trail records of an endpoint; a disabling by delivery with its reason as `detail.reason`. */
export type WebhookEndpointAction = "created" | "enabled" | "disabled" | "secret_rolled" | "deleted";

/** The endpoints as listed, each named by who added it: a user, or the line of its adding (the CLI's label). */
async function toItems(
  organizationId: string,
  rows: ItemRow[],
  now = new Date(),
  tx?: Transaction,
): Promise<WebhookEndpointItem[]> {
  const unnamed = rows.filter((row) => !row.createdBy).map((row) => row.id);
  const makers = await makersOf(organizationId, WEBHOOK_ENDPOINT_SUBJECT, unnamed, ["created"], tx);
  return rows.map(({ createdBy, ...row }) => {
    const overlapOpen = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
    return {
      ...row,
      events: row.events as WebhookEventType[],
      enabled: row.disabledAt === null,
      disabledReason: row.disabledReason as DisabledReason | null,
      previousSecretExpiresAt: overlapOpen ? row.previousSecretExpiresAt : null,
      createdBy: createdBy?.member.name ?? makers.get(row.id) ?? null,
    };
  });
}

/** One endpoint as listed, read in `tx`. */
async function readItem(tx: Transaction, organizationId: string, endpointId: string) {
  const row = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: ITEM_SELECT });
  const [item] = await toItems(organizationId, [row], new Date(), tx);
  return item!;
}

async function recordTrail(
  tx: Transaction,
  endpoint: { id: string; organizationId: string; url: string },
  action: WebhookEndpointAction,
  actor: Actor,
  reason?: DisabledReason,
) {
  await recordActivity(tx, endpoint.organizationId, actor, {
    subject: { type: WEBHOOK_ENDPOINT_SUBJECT, id: endpoint.id, label: endpoint.url },
    action,
    detail: reason ? { reason } : undefined,
  });
}

/**
 * Adds an endpoint; its secret is returned once. The URL comes checked (https, a public address:
 * checkWebhookTarget in lib/webhooks/target.ts), since checking it resolves its host, which no query does.
 */
export async function createWebhookEndpoint(input: {
  organizationId: string;
  url: URL;
  events: WebhookEventType[];
  actor: Actor;
}): Promise<CreatedWebhookEndpoint> {
  const { url } = input;
  const { secret, sealed } = generateWebhookSecretPair();
  const db = await getDb();
  return db.$transaction(async (tx) => {
    // The organization's row locked, so two creations at once cannot both see room for one more.
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${input.organizationId}::uuid FOR UPDATE`;
    const count = await tx.webhookEndpoint.count({ where: { organizationId: input.organizationId } });
    if (count >= MAX_ENDPOINTS_PER_ORGANIZATION) throw new ApiError("conflict", TOO_MANY_ENDPOINTS);
    const row = await tx.webhookEndpoint.create({
      data: {
        organizationId: input.organizationId,
        url: url.href,
        events: input.events,
        secretSealed: sealed,
        createdById: input.actor.userId ?? null,
      },
      select: { id: true },
    });
    await recordTrail(tx, { id: row.id, organizationId: input.organizationId, url: url.href }, "created", input.actor);
    return { ...(await readItem(tx, input.organizationId, row.id)), secret };
  });
}

export async function listWebhookEndpoints(organizationId: string, now = new Date()): Promise<WebhookEndpointItem[]> {
  const db = await getDb();
  const rows = await db.webhookEndpoint.findMany({
    where: { organizationId },
    select: ITEM_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return toItems(organizationId, rows, now);
}

/** The organization an endpoint belongs to, for the CLI, which names endpoints by id alone. */
export async function findWebhookEndpointOrganization(endpointId: string) {
  const db = await getDb();
  const row = await db.webhookEndpoint.findUnique({
    where: { id: endpointId },
    select: { organization: { select: { id: true, slug: true, name: true } } },
  });
  return row?.organization ?? null;
}

/** An endpoint of this organization, in `tx`, or not_found. */
export async function findEndpoint(tx: Transaction, organizationId: string, endpointId: string) {
  const endpoint = await tx.webhookEndpoint.findFirst({
    where: { id: endpointId, organizationId },
    select: { id: true, organizationId: true, url: true, disabledAt: true, secretSealed: true },
  });
  if (!endpoint) throw new ApiError("not_found", ENDPOINT_NOT_FOUND);
  return endpoint;
}

/**
 * Turns an endpoint on or off. Off, what was waiting for it is given up (lib/data/webhook-endpoint-state.ts); on
 * again, it receives events from then on and its failure clock starts afresh.
 * Setting the state it already has changes nothing and records nothing.
 */
export async function setWebhookEndpointEnabled(
  organizationId: string,
  endpointId: string,
  enabled: boolean,
  actor: Actor,
): Promise<WebhookEndpointItem> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, organizationId, endpointId);
    if ((endpoint.disabledAt === null) !== enabled) {
      if (enabled)
        await tx.webhookEndpoint.update({
          where: { id: endpoint.id },
          data: { disabledAt: null, disabledReason: null, failingSince: null },
          select: { id: true },
        });
      else await disableEndpoint(tx, endpoint.id, "manual", new Date());
      await recordTrail(tx, endpoint, enabled ? "enabled" : "disabled", actor);
    }
    return readItem(tx, organizationId, endpoint.id);
  });
}

/**
 * Turns an endpoint off because delivering to it failed (the receiver answered 410 Gone, or failed for days): the
 * delivery loop's call (lib/webhooks/deliver.ts), recorded in the trail as Sundown's, with the reason. An endpoint
 * gone or already off meanwhile is left as it is.
 */
export async function disableWebhookEndpointByDelivery(endpointId: string, reason: DisabledReason, at: Date) {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findUnique({
      where: { id: endpointId },
      select: { id: true, organizationId: true, url: true, disabledAt: true },
    });
    if (!endpoint || endpoint.disabledAt) return;
    await disableEndpoint(tx, endpoint.id, reason, at);
    await recordTrail(tx, endpoint, "disabled", { label: "sundown" }, reason);
  });
}

/**
 * A new signing secret, returned once. For the overlap the old secret signs too (each delivery carries both
 * signatures), so receivers can switch without losing a delivery; an overlap of 0 stops the old one now.
 */
export async function rollWebhookSecret(
  organizationId: string,
  endpointId: string,
  { overlapMs, actor, now = new Date() }: { overlapMs: number; actor: Actor; now?: Date },
): Promise<{ secret: string; previousSecretExpiresAt: Date | null }> {
  const { secret, sealed } = generateWebhookSecretPair();
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, organizationId, endpointId);
    const previousSecretExpiresAt = overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null;
    // An old secret sealed under another server secret signs nothing: an overlap with it would fail every delivery
    // until it ends. Said now, instead.
    if (previousSecretExpiresAt && openSecretIfAble(endpoint.secretSealed) === undefined)
      throw new ApiError("conflict", UNOPENABLE_OLD_SECRET);
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: {
        secretSealed: sealed,
        previousSecretSealed: previousSecretExpiresAt ? endpoint.secretSealed : null,
        previousSecretExpiresAt,
      },
      select: { id: true },
    });
    await recordTrail(tx, endpoint, "secret_rolled", actor);
    return { secret, previousSecretExpiresAt };
  });
}

/** Deletes an endpoint and its deliveries; the trail keeps its lines, and a "deleted" one, with its URL. */
export async function deleteWebhookEndpoint(organizationId: string, endpointId: string, actor: Actor) {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, organizationId, endpointId);
    await recordTrail(tx, endpoint, "deleted", actor);
    await tx.webhookEndpoint.delete({ where: { id: endpoint.id }, select: { id: true } });
  });
}
