import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { pruneWebhookHistory, WEBHOOK_RETENTION_DAYS } from "@/lib/data/webhook-retention";
import { getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { deliverDue, IN_FLIGHT_PER_ORGANIZATION } from "@/lib/webhooks/deliver";
import { MAX_ENDPOINTS_PER_ORGANIZATION, TOO_MANY_ENDPOINTS } from "@/lib/data/webhook-endpoints";
import { redeliverWebhook, sendWebhookPing } from "@/lib/webhooks/pushes";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { PUSHES_PER_MINUTE } from "@/lib/webhooks/push-limit";
import { CHUNK_DELIVERIES, relayOutbox } from "@/lib/webhooks/relay";
import { createHistoryOrg, historyReport, type HistoryOrg } from "../helpers/history-org";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// One organization cannot stall webhooks for the others (issue 34): an import to many endpoints made 960,000
// deliveries in one transaction and queued them ahead of everyone's; another organization's ping waited hours and
// the embedded database answered no API call for 59 s. Here: a bounded number of endpoints, a budget for pings
// and redeliveries, and the 2,000-report import expanded in chunks and delivered round-robin.

const ACTOR = { label: "test" } as const;
const orgs: HistoryOrg[] = [];
const receivers: WebhookReceiver[] = [];

async function org() {
  const created = await createHistoryOrg();
  orgs.push(created);
  return created;
}

async function receiver() {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

function endpoint(organizationId: string, url: string) {
  return addWebhookEndpoint({ organizationId, url, events: ["report.published"], actor: ACTOR });
}

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(() => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
  resetEnvCache();
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  for (const o of orgs) await o.remove();
  delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  resetEnvCache();
});

describe("bounds per organization", () => {
  it(`at most ${MAX_ENDPOINTS_PER_ORGANIZATION} endpoints, even when created all at once`, async () => {
    const o = await org();
    const r = await receiver();
    const tries = await Promise.allSettled(
      Array.from({ length: MAX_ENDPOINTS_PER_ORGANIZATION + 5 }, (_, i) =>
        endpoint(o.organization.id, `${r.url}/${i}`),
      ),
    );
    expect(tries.filter((t) => t.status === "fulfilled")).toHaveLength(MAX_ENDPOINTS_PER_ORGANIZATION);
    const refused = tries.filter((t) => t.status === "rejected").map((t) => (t as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(5);
    for (const error of refused) expect(error).toMatchObject({ code: "conflict", message: TOO_MANY_ENDPOINTS });
    // Another organization is not affected by this one's endpoints.
    const other = await org();
    await expect(endpoint(other.organization.id, r.url)).resolves.toMatchObject({ url: r.url });
  });

  it(`at most ${PUSHES_PER_MINUTE} pings and redeliveries a minute, counted together`, async () => {
    const o = await org();
    const r = await receiver();
    const e = await endpoint(o.organization.id, r.url);
    const pings = await Promise.allSettled(
      Array.from({ length: PUSHES_PER_MINUTE }, () => sendWebhookPing(o.organization.id, e.id)),
    );
    expect(pings.every((p) => p.status === "fulfilled")).toBe(true);
    const ping = await refusal(sendWebhookPing(o.organization.id, e.id));
    expect(ping.code).toBe("rate_limited");
    expect(ping.message).toMatch(
      new RegExp(`^This organization has sent ${PUSHES_PER_MINUTE} pings and redeliveries in the last minute`),
    );
    expect(Number(ping.headers["Retry-After"])).toBeGreaterThan(0);
    const { deliveryId } = (pings[0] as PromiseFulfilledResult<{ deliveryId: string }>).value;
    expect((await refusal(redeliverWebhook(o.organization.id, deliveryId))).code).toBe("rate_limited");
    // Nothing more was queued than the budget allowed.
    const db = await getDb();
    expect(await db.webhookDelivery.count({ where: { endpointId: e.id } })).toBe(PUSHES_PER_MINUTE);
    // Another organization's budget is its own.
    const other = await org();
    const otherEndpoint = await endpoint(other.organization.id, r.url);
    await expect(sendWebhookPing(other.organization.id, otherEndpoint.id)).resolves.toHaveProperty("deliveryId");
  });
});

describe("a 2,000-report import to every endpoint an organization may have", () => {
  const REPORTS = 2000;

  it("is expanded in bounded chunks, and another organization's ping goes out in the next pass", async () => {
    const busy = await org();
    const quiet = await org();
    const [busyReceiver, quietReceiver] = await Promise.all([receiver(), receiver()]);
    for (let i = 0; i < MAX_ENDPOINTS_PER_ORGANIZATION; i++)
      await endpoint(busy.organization.id, `${busyReceiver.url}/${i}`);
    const quietEndpoint = await endpoint(quiet.organization.id, quietReceiver.url);
    const db = await getDb();

    await busy.add(
      Array.from({ length: REPORTS }, (_, i) =>
        historyReport({ generated_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() }),
      ),
    );
    // The import wrote one outbox row; nothing is expanded on its path.
    expect(await db.webhookDelivery.count({ where: { organizationId: busy.organization.id } })).toBe(0);

    // Each transaction of the relay makes at most CHUNK_DELIVERIES deliveries.
    for (let i = 0; i < 3; i++) expect(await relayOutbox(1)).toBeLessThanOrEqual(CHUNK_DELIVERIES);
    // A pass takes no more than IN_FLIGHT_PER_ORGANIZATION of one organization's deliveries.
    // (Other organizations' due deliveries, if any, share the pass.)
    await deliverDue();
    expect(busyReceiver.received.length).toBeGreaterThan(0);
    expect(busyReceiver.received.length).toBeLessThanOrEqual(IN_FLIGHT_PER_ORGANIZATION);

    // The quiet organization pings while the busy one's backlog is tens of thousands deep.
    await sendWebhookPing(quiet.organization.id, quietEndpoint.id);
    const api = call(listReports, "/api/v1/reports?limit=5", { headers: bearer(quiet.key) });
    await deliverDue();
    expect(quietReceiver.received).toHaveLength(1);
    expect(quietReceiver.received[0]!.body).toContain('"type":"ping"');
    // The API answered while the passes ran.
    expect((await api).status).toBe(200);

    const left = await db.webhookDelivery.count({
      where: { organizationId: busy.organization.id, state: "pending" },
    });
    const outbox = await db.webhookOutbox.count({ where: { organizationId: busy.organization.id } });
    // Still deep: most of the 40,000 deliveries are still to come (expanded or waiting in the outbox).
    expect(left + outbox).toBeGreaterThan(0);
    expect(busyReceiver.received.length).toBeLessThan((REPORTS * MAX_ENDPOINTS_PER_ORGANIZATION) / 10);
    // The import's work is all still there: expanding the rest makes exactly 2,000 × 20 deliveries in all.
    while ((await relayOutbox(8)) > 0);
    expect(await db.webhookDelivery.count({ where: { organizationId: busy.organization.id } })).toBe(
      REPORTS * MAX_ENDPOINTS_PER_ORGANIZATION,
    );
  }, 180_000);
});

describe("retention", () => {
  it(`prunes attempts and finished messages older than ${WEBHOOK_RETENTION_DAYS} days, keeping what is still to deliver`, async () => {
    const o = await org();
    const r = await receiver();
    const e = await endpoint(o.organization.id, r.url);
    const db = await getDb();
    const [old, pending, recent] = await Promise.all([
      sendWebhookPing(o.organization.id, e.id),
      sendWebhookPing(o.organization.id, e.id),
      sendWebhookPing(o.organization.id, e.id),
    ]);
    await db.webhookDelivery.updateMany({
      where: { id: { in: [old.deliveryId, recent.deliveryId] } },
      data: { state: "delivered", nextAttemptAt: null },
    });
    await db.webhookDelivery.update({
      where: { id: pending.deliveryId },
      data: { nextAttemptAt: new Date(Date.now() + 3600_000) },
    });
    const longAgo = new Date(Date.now() - (WEBHOOK_RETENTION_DAYS + 1) * 86_400_000);
    await db.webhookMessage.updateMany({
      where: { id: { in: [old.messageId, pending.messageId] } },
      data: { createdAt: longAgo },
    });
    for (const [delivery, at] of [
      [recent.deliveryId, longAgo],
      [recent.deliveryId, new Date()],
    ] as const)
      await db.webhookAttempt.create({
        data: { deliveryId: delivery, endpointId: e.id, attempt: 1, attemptedAt: at, statusCode: 204, durationMs: 1 },
      });

    await pruneWebhookHistory();

    const messages = await db.webhookMessage.findMany({
      where: { organizationId: o.organization.id },
      select: { id: true },
    });
    expect(new Set(messages.map((m) => m.id))).toEqual(new Set([pending.messageId, recent.messageId]));
    const attempts = await db.webhookAttempt.findMany({ where: { endpointId: e.id }, select: { attemptedAt: true } });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.attemptedAt.getTime()).toBeGreaterThan(longAgo.getTime());
  });
});
