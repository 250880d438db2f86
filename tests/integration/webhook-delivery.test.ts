import { listActivity } from "@/lib/data/activity";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import {
  listWebhookEndpoints,
  WEBHOOK_ENDPOINT_SUBJECT,
  rollWebhookSecret,
  setWebhookEndpointEnabled,
} from "@/lib/data/webhook-endpoints";
import { listWebhookAttempts } from "@/lib/data/webhook-deliveries";
import { redeliverWebhook, sendWebhookPing } from "@/lib/webhooks/pushes";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { getDb } from "@/lib/db";
import { getEnv, publicUrl, resetEnvCache } from "@/lib/env";
import { deliverDue } from "@/lib/webhooks/deliver";
import { postWebhook } from "@/lib/webhooks/send";
import { createHistoryOrg, historyReport, type HistoryOrg } from "../helpers/history-org";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import { answer, hang, startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// Webhooks end to end inside one process: reports imported, their events taken from the outbox and delivered to
// receivers on loopback, each request verified with the standardwebhooks library as a customer's receiver would.
// The delivery loop of a running server is not started here: each test drives the passes itself.

const ACTOR = { label: "test" } as const;
const receivers: WebhookReceiver[] = [];
let org: HistoryOrg;

async function receiver(...args: Parameters<typeof startWebhookReceiver>) {
  const started = await startWebhookReceiver(...args);
  receivers.push(started);
  return started;
}

/** Passes until nothing is due: what the loop of a running server does over its first seconds. */
async function deliverAll(): Promise<number> {
  let attempted = 0;
  for (;;) {
    const pass = await deliverDue();
    if (pass.attempted === 0) return attempted;
    attempted += pass.attempted;
  }
}

/** Time passes: the endpoint's scheduled retries fall due now. */
async function retriesFallDue(endpointId: string) {
  const db = await getDb();
  await db.webhookDelivery.updateMany({ where: { endpointId, state: "pending" }, data: { nextAttemptAt: new Date() } });
}

function endpoint(url: string, events: "report.published"[] = ["report.published"]) {
  return addWebhookEndpoint({ organizationId: org.organization.id, url, events, actor: ACTOR });
}

function reports(count: number, start = Date.UTC(2026, 0, 1)) {
  return Array.from({ length: count }, (_, i) =>
    historyReport({ generated_at: new Date(start + i * 60_000).toISOString(), headline: `Day ${i} by ops@acme.test` }),
  );
}

beforeAll(async () => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
  resetEnvCache();
  org = await createHistoryOrg();
});

afterEach(async () => {
  // Each test's endpoints go with it, so a later import queues nothing for them.
  const db = await getDb();
  await db.webhookEndpoint.deleteMany({ where: { organizationId: org.organization.id } });
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await org.remove();
  delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  resetEnvCache();
});

describe("report.published", () => {
  it("an import of 1,000 reports reaches each of two endpoints once per report, every delivery signed", async () => {
    const [a, b] = await Promise.all([receiver(), receiver()]);
    const [endpointA, endpointB] = await Promise.all([endpoint(a.url), endpoint(b.url)]);
    const imported = reports(1000);
    await org.add(imported);

    expect(await deliverAll()).toBe(2000);
    for (const [r, e] of [
      [a, endpointA],
      [b, endpointB],
    ] as const) {
      expect(r.received).toHaveLength(1000);
      expect(r.ids().size).toBe(1000);
      const bodies = r.received.map((request) => r.verify(request, e.secret) as { data: { report: { id: string } } });
      expect(new Set(bodies.map((body) => body.data.report.id))).toEqual(new Set(imported.map((i) => i.id)));
    }
    // 2,000 POSTs over loopback, 16 at a time: on a loaded machine that is more than the default 20 s. The import
    // itself writes one outbox row (tests/integration/webhook-fairness.test.ts).
  }, 60_000);

  it("carries the report's summary exactly as GET /api/v1/reports lists it, contact details removed, and its URL", async () => {
    const r = await receiver();
    const e = await endpoint(r.url);
    const [report] = reports(1, Date.UTC(2030, 0, 1));
    await org.add([report!]);
    await deliverAll();

    const res = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(org.key) });
    const listed = res.body.reports[0];
    expect(listed.id).toBe(report!.id);
    expect(listed.headline).not.toContain("ops@acme.test");
    const body = r.verify(r.received[0]!, e.secret) as Record<string, unknown>;
    expect(body).toEqual({
      id: r.received[0]!.headers["webhook-id"],
      type: "report.published",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      organization_id: org.organization.id,
      data: { report: listed, url: `${publicUrl(getEnv())}/api/v1/reports/${report!.id}` },
    });
    expect(r.received[0]!.headers["content-type"]).toBe("application/json");
    // Field for field in the API's order, as a receiver that prints or hashes the body sees it.
    expect(JSON.stringify((body.data as { report: unknown }).report)).toBe(JSON.stringify(listed));
    expect(Object.keys(body)).toEqual(["id", "type", "timestamp", "organization_id", "data"]);
  });

  it("an import that fails queues nothing, and an endpoint that is off or not subscribed receives nothing", async () => {
    const r = await receiver();
    const e = await endpoint(r.url);
    await expect(
      org.add([{ ...reports(1)[0]!, scope: "member", scope_target_id: "00000000-0000-4000-8000-000000000000" }]),
    ).rejects.toThrow(/no member with this id/);
    await setWebhookEndpointEnabled(org.organization.id, e.id, false, ACTOR);
    await org.add(reports(3, Date.UTC(2025, 0, 1)));
    expect(await deliverAll()).toBe(0);
    expect(r.received).toHaveLength(0);
    const db = await getDb();
    expect(await db.webhookDelivery.count({ where: { endpointId: e.id } })).toBe(0);
  });
});

describe("when the receiver does not take it", () => {
  it("records a failed attempt, retries on the schedule, and delivers once the receiver recovers", async () => {
    const r = await receiver(answer(500, "database is down"));
    const e = await endpoint(r.url);
    const before = Date.now();
    await sendWebhookPing(org.organization.id, e.id);
    await deliverAll();

    let [first] = await listWebhookAttempts(org.organization.id, e.id);
    expect(first).toMatchObject({ type: "ping", attempt: 1, statusCode: 500, error: "answered 500", state: "pending" });
    // The first retry comes about 5 seconds later (a tenth of jitter either way).
    expect(first!.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(4_500);
    expect(first!.nextAttemptAt!.getTime() - Date.now()).toBeLessThanOrEqual(5_500);
    expect((await listWebhookEndpoints(org.organization.id))[0]!.failingSince).not.toBeNull();

    r.respond = answer(200);
    await retriesFallDue(e.id);
    await deliverAll();
    const attempts = await listWebhookAttempts(org.organization.id, e.id);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.state])).toEqual([
      [2, 200, "delivered"],
      [1, 500, "delivered"],
    ]);
    [first] = attempts;
    expect(first!.error).toBeNull();
    expect((await listWebhookEndpoints(org.organization.id))[0]!.failingSince).toBeNull();
    // Both attempts carried the same message: the receiver can tell a retry by its webhook-id.
    expect(r.ids().size).toBe(1);
  });

  it("410 Gone turns the endpoint off, gives up what waited for it, and says so in the trail", async () => {
    const r = await receiver(answer(410));
    const e = await endpoint(r.url);
    await sendWebhookPing(org.organization.id, e.id);
    await sendWebhookPing(org.organization.id, e.id);
    await deliverDue(1);

    const [listed] = await listWebhookEndpoints(org.organization.id);
    expect(listed).toMatchObject({ enabled: false, disabledReason: "gone" });
    expect(await deliverAll()).toBe(0);
    expect(r.received).toHaveLength(1);
    const [trail] = await listActivity(org.organization.id, [WEBHOOK_ENDPOINT_SUBJECT]);
    expect(trail).toMatchObject({
      subject: { type: WEBHOOK_ENDPOINT_SUBJECT, id: e.id, label: e.url },
      action: "disabled",
      detail: { reason: "gone" },
      actor: "sundown",
    });
    const attempt = (await listWebhookAttempts(org.organization.id, e.id))[0]!;
    await expect(redeliverWebhook(org.organization.id, attempt.deliveryId)).rejects.toThrow(/enable it/);
  });

  it("failing for three days turns the endpoint off", async () => {
    const r = await receiver(answer(503));
    const e = await endpoint(r.url);
    const db = await getDb();
    await db.webhookEndpoint.update({
      where: { id: e.id },
      data: { failingSince: new Date(Date.now() - 73 * 3600_000) },
    });
    await sendWebhookPing(org.organization.id, e.id);
    await deliverAll();
    expect((await listWebhookEndpoints(org.organization.id))[0]).toMatchObject({
      enabled: false,
      disabledReason: "failing",
    });
  });

  it("does not follow a redirect", async () => {
    const elsewhere = await receiver();
    const r = await receiver(answer(301, "", { Location: elsewhere.url }));
    const e = await endpoint(r.url);
    await sendWebhookPing(org.organization.id, e.id);
    await deliverAll();
    expect(elsewhere.received).toHaveLength(0);
    const [attempt] = await listWebhookAttempts(org.organization.id, e.id);
    expect(attempt).toMatchObject({ statusCode: 301, state: "pending" });
    expect(attempt!.error).toMatch(/redirects are not followed/);
  });

  it("gives up on a receiver that does not answer within the timeout", async () => {
    const r = await receiver(hang);
    const url = new URL(r.url);
    const result = await postWebhook({ url, address: "127.0.0.1", family: 4, headers: {}, body: "{}", timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, error: "no answer within 0.3 s" });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it("sends no body over 64 KB: the attempt says why, is not retried, and leaves the endpoint healthy", async () => {
    const r = await receiver();
    const e = await endpoint(r.url);
    const [report] = reports(1, Date.UTC(2023, 0, 1));
    await org.add([{ ...report!, headline: "x".repeat(70_000) }]);
    await deliverAll();
    expect(r.received).toHaveLength(0);
    const [attempt] = await listWebhookAttempts(org.organization.id, e.id);
    expect(attempt).toMatchObject({ type: "report.published", statusCode: null, state: "failed" });
    expect(attempt!.error).toBe("the event's body is 69 KB, over the 64 KB limit: not sent; read it at its URL");
    expect((await listWebhookEndpoints(org.organization.id))[0]).toMatchObject({ enabled: true, failingSince: null });
  });

  it("keeps only the start of a long answer", async () => {
    const r = await receiver(answer(500, "x".repeat(100_000)));
    const e = await endpoint(r.url);
    await sendWebhookPing(org.organization.id, e.id);
    await deliverAll();
    const db = await getDb();
    const stored = await db.webhookAttempt.findFirstOrThrow({
      where: { endpointId: e.id },
      select: { responseBody: true },
    });
    expect(stored.responseBody).toHaveLength(1024);
  });
});

describe("signing secrets and addresses", () => {
  it("during a roll's overlap each delivery verifies with the old secret and the new; after it, only the new", async () => {
    const r = await receiver();
    const e = await endpoint(r.url);
    const rolled = await rollWebhookSecret(org.organization.id, e.id, { overlapMs: 3600_000, actor: ACTOR });
    await sendWebhookPing(org.organization.id, e.id);
    await deliverAll();
    expect(r.received[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => r.verify(r.received[0]!, e.secret)).not.toThrow();
    expect(() => r.verify(r.received[0]!, rolled.secret)).not.toThrow();

    const again = await rollWebhookSecret(org.organization.id, e.id, { overlapMs: 0, actor: ACTOR });
    await sendWebhookPing(org.organization.id, e.id);
    await deliverAll();
    expect(() => r.verify(r.received[1]!, again.secret)).not.toThrow();
    expect(() => r.verify(r.received[1]!, rolled.secret)).toThrow(/No matching signature/);
    expect(() => r.verify(r.received[1]!, e.secret)).toThrow(/No matching signature/);
  });

  it("checks the address again at delivery: an endpoint whose exception was withdrawn gets no request", async () => {
    const r = await receiver();
    const e = await endpoint(r.url);
    await sendWebhookPing(org.organization.id, e.id);
    process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "";
    resetEnvCache();
    try {
      await deliverAll();
    } finally {
      process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
      resetEnvCache();
    }
    expect(r.received).toHaveLength(0);
    const [attempt] = await listWebhookAttempts(org.organization.id, e.id);
    expect(attempt).toMatchObject({ statusCode: null, state: "pending" });
    expect(attempt!.error).toMatch(/loopback/);
  });

  it("passes running at once never attempt one delivery twice", async () => {
    const r = await receiver((_request, response) => setTimeout(() => response.end(), 20));
    const e = await endpoint(r.url);
    await org.add(reports(60, Date.UTC(2024, 0, 1)));
    for (;;) {
      const passes = await Promise.all([deliverDue(), deliverDue(), deliverDue()]);
      if (passes.every((p) => p.attempted === 0)) break;
    }
    expect(r.received).toHaveLength(60);
    expect(r.ids().size).toBe(60);
    expect((await listWebhookAttempts(org.organization.id, e.id)).every((a) => a.state === "delivered")).toBe(true);
  });
});
