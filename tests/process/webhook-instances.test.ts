import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importReports, type ImportReport } from "@/lib/data/import-reports";
import { findOrganization } from "@/lib/data/organizations";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { installDbHandle, openPostgres, type DbHandle } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { hasPgBouncer, startPgBouncer, type ThrowawayPgBouncer } from "../helpers/pgbouncer";
import { createSeededDatabase, type SeededDatabase } from "../helpers/seeded-postgres";
import { startServer, type RunningServer } from "../helpers/server";
import { answer, hang, startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// Webhooks as deployed: `next start` instances on one PostgreSQL through a transaction-mode PgBouncer, each running
// its delivery loop over the same outbox. Every report's event arrives, once per endpoint while the instances are
// healthy, and still arrives when the instance attempting it is killed with SIGKILL mid-request.

const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
const ENABLED = Boolean(adminUrl);
if (process.env.CI === "true" && !ENABLED) throw new Error("CI=true requires SUNDOWN_TEST_DATABASE_URL.");
if (ENABLED && !hasPgBouncer())
  throw new Error("The webhook instances test needs pgbouncer (apt-get install pgbouncer).");

const SECRET = "webhook-instances-secret-webhook-instances";
const SLOW = 180_000;

let database: SeededDatabase;
let pgbouncer: ThrowawayPgBouncer;
let db: DbHandle;
let env: Record<string, string | undefined>;
const running: RunningServer[] = [];
const receivers: WebhookReceiver[] = [];

function reports(count: number, day: number): ImportReport[] {
  return Array.from({ length: count }, (_, i) => ({
    scope: "org",
    scope_target_id: null,
    generated_at: new Date(Date.UTC(2026, 0, day) + i * 60_000).toISOString(),
    report: { headline: `Report ${i}`, kpi_status: [], shipped: [], silent: [], slipping: [], blockers: [] },
  }));
}

async function until(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The webhook-ids a receiver took (answered 2xx), by counting its answers. */
function taking(receiver: WebhookReceiver) {
  const taken: string[] = [];
  receiver.respond = (request, response) => {
    taken.push(request.headers["webhook-id"]!);
    answer(204)(request, response);
  };
  return taken;
}

describe.skipIf(!ENABLED)("webhooks from several instances on one PostgreSQL, through PgBouncer", () => {
  beforeAll(async () => {
    database = await createSeededDatabase(adminUrl!, "sundown_webhooks");
    pgbouncer = await startPgBouncer(adminUrl!);
    db = openPostgres(database.url, 4);
    installDbHandle(db);
    // This process creates endpoints, so it seals their secrets under the instances' server secret.
    process.env.NEXTAUTH_SECRET = SECRET;
    process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
    resetEnvCache();
    env = {
      DATABASE_URL: pgbouncer.url(database.name),
      NEXTAUTH_SECRET: SECRET,
      SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*",
    };
  }, SLOW);

  afterAll(async () => {
    await Promise.all(running.filter((s) => s.process.exitCode === null && !s.process.signalCode).map((s) => s.stop()));
    await Promise.all(receivers.map((r) => r.close()));
    await db?.close();
    await pgbouncer?.stop();
    await database?.drop();
    delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
    resetEnvCache();
  });

  async function endpoints(count: number) {
    const organization = (await findOrganization("acme"))!;
    const made = [];
    for (let i = 0; i < count; i++) {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      const endpoint = await addWebhookEndpoint({
        organizationId: organization.id,
        url: receiver.url,
        events: ["report.published"],
        actor: { label: "test" },
      });
      made.push({ receiver, endpoint });
    }
    return { organization, made };
  }

  it(
    "two instances deliver an import of 1,000 reports to two endpoints: each report once to each, none lost",
    async () => {
      running.push(...(await Promise.all([startServer(env), startServer(env)])));
      const { organization, made } = await endpoints(2);
      const taken = made.map(({ receiver }) => taking(receiver));

      await importReports(organization, reports(1000, 1), { actor: { label: "test" } });
      await until(() => taken.every((t) => t.length >= 1000), 120_000, "1,000 deliveries to each endpoint");
      // A moment more, for a duplicate to show up if a delivery were attempted twice.
      await new Promise((r) => setTimeout(r, 3_000));
      for (const [i, { receiver, endpoint }] of made.entries()) {
        expect(taken[i]).toHaveLength(1000);
        expect(new Set(taken[i])).toHaveProperty("size", 1000);
        for (const request of receiver.received) expect(() => receiver.verify(request, endpoint.secret)).not.toThrow();
      }
      const db0 = await import("@/lib/db").then((m) => m.getDb());
      await db0.webhookEndpoint.deleteMany({ where: { id: { in: made.map((m) => m.endpoint.id) } } });
      await Promise.all(running.splice(0).map((s) => s.stop()));
    },
    SLOW,
  );

  it(
    "an instance killed with SIGKILL mid-delivery loses nothing: another attempts what it held once its lease ends",
    async () => {
      const victim = await startServer(env);
      running.push(victim);
      const { organization, made } = await endpoints(1);
      const [{ receiver, endpoint }] = made as [(typeof made)[number]];
      receiver.respond = hang;

      await importReports(organization, reports(20, 2), { actor: { label: "test" } });
      await until(() => receiver.received.length > 0, 30_000, "the first attempt to arrive");
      victim.process.kill("SIGKILL");
      const taken = taking(receiver);

      running.push(await startServer(env));
      await until(() => new Set(taken).size >= 20, 90_000, "all 20 events to be taken after the kill");
      expect(new Set(taken).size).toBe(20);
      for (const request of receiver.received) expect(() => receiver.verify(request, endpoint.secret)).not.toThrow();
    },
    SLOW,
  );
});
