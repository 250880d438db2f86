import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as cron } from "@/app/api/cron/webhooks/route";
import { sendWebhookPing } from "@/lib/webhooks/pushes";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { resetEnvCache } from "@/lib/env";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";
import { call } from "../helpers/request";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// On a serverless platform nothing runs between requests: Vercel Cron calls /api/cron/webhooks every minute with
// the CRON_SECRET as a bearer token, and the route attempts what is due.

const CRON_SECRET = "cron-secret-cron-secret-cron-secret";
let org: HistoryOrg;
let receiver: WebhookReceiver;

function configure(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
}

beforeAll(async () => {
  configure({ SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*", CRON_SECRET });
  org = await createHistoryOrg();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
  await org.remove();
  configure({ SUNDOWN_WEBHOOK_ALLOW_HOSTS: undefined, CRON_SECRET: undefined });
});

describe("GET /api/cron/webhooks", () => {
  it("delivers what is due when called with the cron secret", async () => {
    const endpoint = await addWebhookEndpoint({
      organizationId: org.organization.id,
      url: receiver.url,
      events: ["report.published"],
      actor: { label: "test" },
    });
    await sendWebhookPing(org.organization.id, endpoint.id);
    const res = await call(cron, "/api/cron/webhooks", { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
    expect(res.status).toBe(200);
    expect(res.body.attempted).toBeGreaterThanOrEqual(1);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: "ping" });
  });

  it("refuses a missing or wrong secret with the contract's JSON error, attempting nothing", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong" },
      { Authorization: `Bearer ${CRON_SECRET}x` },
    ];
    for (const headers of attempts) {
      const res = await call(cron, "/api/cron/webhooks", { headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "unauthorized" });
    }
  });

  it("does not exist where no CRON_SECRET is configured", async () => {
    configure({ CRON_SECRET: undefined });
    try {
      const res = await call(cron, "/api/cron/webhooks", { headers: { Authorization: "Bearer anything" } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found" });
    } finally {
      configure({ CRON_SECRET });
    }
  });
});
