import { gzipSync } from "node:zlib";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { deliverDue, UNRECORDED_GIVEN_UP } from "@/lib/webhooks/deliver";
import { listWebhookAttempts } from "@/lib/data/webhook-deliveries";
import { sendWebhookPing } from "@/lib/webhooks/pushes";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { MAX_ATTEMPTS } from "@/lib/webhooks/schedule";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";
import { startWebhookReceiver, type Respond, type WebhookReceiver } from "../helpers/webhook-receiver";

// Whatever a receiver answers, the attempt is recorded and the schedule holds: issue 34 found a NUL byte in an
// answer failing the statement that records the outcome, and the delivery sent again every 25 s past its cap
// (150 pings became 1,241 POSTs). Real receivers answer real bytes here; the database refusing a write is a real
// trigger, not a mock.

const ACTOR = { label: "test" } as const;
const receivers: WebhookReceiver[] = [];
let org: HistoryOrg;

// The first bytes of a PNG file: a signature with a NUL-free start, then a chunk length full of NUL bytes.
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

function bytes(status: number, body: Buffer, type: string): Respond {
  return (_request, response) => {
    response.writeHead(status, { "Content-Type": type });
    response.end(body);
  };
}

async function endpointAnswering(respond: Respond) {
  const receiver = await startWebhookReceiver(respond);
  receivers.push(receiver);
  const endpoint = await addWebhookEndpoint({
    organizationId: org.organization.id,
    url: receiver.url,
    events: ["report.published"],
    actor: ACTOR,
  });
  return { receiver, endpoint };
}

async function deliverAll(): Promise<number> {
  let attempted = 0;
  for (;;) {
    const pass = await deliverDue();
    if (pass.attempted === 0) return attempted;
    attempted += pass.attempted;
  }
}

/** Time passes: the endpoint's retries fall due, and leases left by outcomes never recorded run out. */
async function timePasses(endpointId: string) {
  const db = await getDb();
  await db.$executeRaw`
    UPDATE webhook_deliveries
    SET next_attempt_at = now() - interval '1 second',
        lease_until = CASE WHEN lease_until IS NULL THEN NULL ELSE now() - interval '1 second' END
    WHERE endpoint_id = ${endpointId}::uuid AND state = 'pending'`;
}

async function deliveryOf(endpointId: string) {
  const db = await getDb();
  return db.webhookDelivery.findFirstOrThrow({ where: { endpointId }, select: { state: true, attempts: true } });
}

beforeAll(async () => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
  resetEnvCache();
  org = await createHistoryOrg();
});

afterEach(async () => {
  const db = await getDb();
  await db.$executeRawUnsafe("DROP TRIGGER IF EXISTS refuse_attempts ON webhook_attempts");
  await db.$executeRawUnsafe("DROP FUNCTION IF EXISTS refuse_attempts()");
  await db.webhookEndpoint.deleteMany({ where: { organizationId: org.organization.id } });
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await org.remove();
  delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  resetEnvCache();
});

describe("an answer the database cannot store as it came", () => {
  it("a 200 with a NUL byte is one POST, recorded as delivered, the NUL kept as U+FFFD", async () => {
    const { receiver, endpoint } = await endpointAnswering(bytes(200, Buffer.from("ok\0done"), "text/plain"));
    await sendWebhookPing(org.organization.id, endpoint.id);
    await deliverAll();
    await timePasses(endpoint.id);
    await deliverAll();

    expect(receiver.received).toHaveLength(1);
    const [attempt] = await listWebhookAttempts(org.organization.id, endpoint.id);
    expect(attempt).toMatchObject({ state: "delivered", statusCode: 200, error: null, responseBody: "ok\uFFFDdone" });
  });

  it.each([
    ["a gzip body", gzipSync(Buffer.from("a".repeat(5000))), "application/gzip"],
    ["a PNG image", PNG, "image/png"],
  ])(
    "a 500 with %s is retried on schedule, one POST per attempt, then given up at the cap",
    async (_name, body, type) => {
      const { receiver, endpoint } = await endpointAnswering(bytes(500, body, type));
      await sendWebhookPing(org.organization.id, endpoint.id);
      await deliverAll();
      // Leased once, recorded: not sent again before its retry is due.
      await deliverAll();
      expect(receiver.received).toHaveLength(1);
      const [first] = await listWebhookAttempts(org.organization.id, endpoint.id);
      expect(first).toMatchObject({ state: "pending", statusCode: 500, error: "answered 500" });
      expect(first!.responseBody).not.toContain("\0");
      expect(first!.responseBody!.length).toBeGreaterThan(0);

      for (let i = 1; i < MAX_ATTEMPTS + 3; i++) {
        await timePasses(endpoint.id);
        await deliverAll();
      }
      expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
      expect(await deliveryOf(endpoint.id)).toEqual({ state: "failed", attempts: MAX_ATTEMPTS });
      expect(await listWebhookAttempts(org.organization.id, endpoint.id)).toHaveLength(MAX_ATTEMPTS);
    },
  );
});

describe("an outcome the database refuses to record", () => {
  /** The database refuses attempt lines matching `condition`, as it refused U+0000 in the case. */
  async function refuseAttempts(condition: string) {
    const db = await getDb();
    await db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_attempts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF ${condition} THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await db.$executeRawUnsafe(
      "CREATE TRIGGER refuse_attempts BEFORE INSERT ON webhook_attempts FOR EACH ROW EXECUTE FUNCTION refuse_attempts()",
    );
  }

  it("an answer that cannot be stored: the attempt is recorded without it, and says so", async () => {
    await refuseAttempts("NEW.response_body IS NOT NULL");
    const { receiver, endpoint } = await endpointAnswering(bytes(503, Buffer.from("busy"), "text/plain"));
    await sendWebhookPing(org.organization.id, endpoint.id);
    await deliverAll();
    await deliverAll();

    expect(receiver.received).toHaveLength(1);
    const [attempt] = await listWebhookAttempts(org.organization.id, endpoint.id);
    expect(attempt).toMatchObject({
      state: "pending",
      statusCode: 503,
      error: "answered 503 (its answer could not be stored)",
      responseBody: null,
    });
  });

  it("no attempt recorded at all: back-off and the cap still hold, then the delivery is given up visibly", async () => {
    await refuseAttempts("NEW.status_code IS NOT NULL");
    const { receiver, endpoint } = await endpointAnswering(bytes(500, Buffer.from("no"), "text/plain"));
    await sendWebhookPing(org.organization.id, endpoint.id);
    await deliverAll();
    // The lease has not run out and the retry is not due: nothing is sent again.
    await deliverAll();
    expect(receiver.received).toHaveLength(1);

    for (let i = 1; i < MAX_ATTEMPTS + 5; i++) {
      await timePasses(endpoint.id);
      await deliverAll();
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect(await deliveryOf(endpoint.id)).toEqual({ state: "failed", attempts: MAX_ATTEMPTS });
    const attempts = await listWebhookAttempts(org.organization.id, endpoint.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ state: "failed", attempt: MAX_ATTEMPTS, error: UNRECORDED_GIVEN_UP });
  });
});

describe("the deliveries view", () => {
  it("shows the stored answer, escaped, control characters visible, long ones folded", async () => {
    const { endpoint } = await endpointAnswering(
      bytes(400, Buffer.from(`<b>bad</b>\u0001\0${"y".repeat(200)}`), "text/html"),
    );
    await sendWebhookPing(org.organization.id, endpoint.id);
    await deliverAll();
    const attempts = await listWebhookAttempts(org.organization.id, endpoint.id);
    const html = renderToStaticMarkup(createElement(DeliveriesTable, { attempts, limit: 100, redeliverAction: null }));

    expect(html).toContain("&lt;b&gt;bad&lt;/b&gt;\\x01\uFFFD");
    expect(html).not.toContain("<b>bad</b>");
    expect(html).toContain("<details>");
    expect(html).toContain("y".repeat(200));
  });
});
