// Webhook delivery, measured: deliveries per second from one process to a receiver on loopback, and what the
// outbox costs an import (1,000 reports with two subscribed endpoints against none, in alternating rounds). Then
// fairness (issue 34's stall): one organization imports 2,000 reports to its 20 endpoints (40,000 deliveries) while
// the delivery loop runs, another organization calls the API every 50 ms and pings its endpoint; printed are the
// import's time, the API's slowest answer meanwhile, and how long the ping waited to arrive.
//
//   npm run bench:webhooks [-- --rounds 5]               (embedded database, in memory)
//   DATABASE_URL=postgresql://…/db npm run bench:webhooks (a migrated PostgreSQL database)
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";

const { values } = parseArgs({ options: { rounds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 5);
const REPORTS = 1000;

process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
process.env.SUNDOWN_DATA_DIR ??= "memory://";
process.env.SUNDOWN_LOG_LEVEL ??= "warn";
// The fairness probe calls the API every 50 ms for as long as it runs: more than a key's default 120 a minute.
process.env.SUNDOWN_RATE_LIMIT ??= "1000000";

const { getDb } = await import("@/lib/db");
const { importReports } = await import("@/lib/data/import-reports");
const { createWebhookEndpoint, MAX_ENDPOINTS_PER_ORGANIZATION } = await import("@/lib/data/webhook-endpoints");
const { sendWebhookPing } = await import("@/lib/webhooks/pushes");
const { deliverDue } = await import("@/lib/webhooks/deliver");
const { startDeliveryLoop, wakeDeliveryLoop } = await import("@/lib/webhooks/loop");
const { createApiKey } = await import("@/lib/data/api-keys");
const { GET: listReports } = await import("@/app/api/v1/reports/route");
const { median } = await import("./stats");

const db = await getDb();

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(204).end());
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

async function organization(endpoints: number) {
  const org = await db.organization.create({
    data: { slug: `bench-webhooks-${randomUUID().slice(0, 8)}`, name: "Bench webhooks" },
    select: { id: true, slug: true, name: true },
  });
  for (let i = 0; i < endpoints; i++)
    await createWebhookEndpoint({
      organizationId: org.id,
      url: new URL(receiverUrl),
      events: ["report.published"],
      actor: { label: "bench" },
    });
  return org;
}

const reports = (count = REPORTS) =>
  Array.from({ length: count }, (_, i) => ({
    scope: "org" as const,
    scope_target_id: null,
    generated_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    report: {
      headline: `Day ${i}: shipped the gripper firmware`,
      kpi_status: [],
      shipped: [{ title: "Gripper firmware 2.4" }],
      silent: [],
      slipping: [],
      blockers: [],
    },
  }));

async function timedImport(endpoints: number): Promise<{ ms: number; orgId: string }> {
  const org = await organization(endpoints);
  // A collection now rather than inside the timed import (run with --expose-gc, as npm run bench:webhooks does).
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  await importReports(org, reports(), { actor: { label: "bench" } });
  return { ms: performance.now() - started, orgId: org.id };
}

async function deliverEverything(): Promise<{ deliveries: number; ms: number }> {
  const started = performance.now();
  let deliveries = 0;
  for (;;) {
    const pass = await deliverDue();
    if (pass.attempted === 0) break;
    deliveries += pass.delivered;
  }
  return { deliveries, ms: performance.now() - started };
}

const FAIR_REPORTS = 2000;

/** Issue 34's stall, with the loop a running server has: see the header. */
async function measureFairness() {
  const busy = await organization(MAX_ENDPOINTS_PER_ORGANIZATION);
  const quiet = await organization(0);
  let pinged = 0;
  const pingServer = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      pinged = performance.now();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => pingServer.listen(0, "127.0.0.1", resolve));
  const quietEndpoint = await createWebhookEndpoint({
    organizationId: quiet.id,
    url: new URL(`http://127.0.0.1:${(pingServer.address() as AddressInfo).port}/ping`),
    events: ["report.published"],
    actor: { label: "bench" },
  });
  const { key } = await createApiKey({
    organizationId: quiet.id,
    name: "bench",
    scopes: ["reports:read"],
    actor: { label: "bench" },
  });
  startDeliveryLoop();
  let probing = true;
  let apiCalls = 0;
  let apiMaxMs = 0;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      const response = await listReports(
        new Request("http://localhost:3000/api/v1/reports?limit=5", { headers: { authorization: `Bearer ${key}` } }),
        { params: Promise.resolve({}) },
      );
      if (response.status !== 200) throw new Error(`the API answered ${response.status}`);
      await response.arrayBuffer();
      apiMaxMs = Math.max(apiMaxMs, performance.now() - started);
      apiCalls++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const importStarted = performance.now();
  await importReports(busy, reports(FAIR_REPORTS), { actor: { label: "bench" } });
  const importMs = performance.now() - importStarted;
  wakeDeliveryLoop();
  // Let the busy organization's backlog build up before the quiet one pings.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const pingedAt = performance.now();
  await sendWebhookPing(quiet.id, quietEndpoint.id);
  wakeDeliveryLoop();
  while (!pinged) await new Promise((resolve) => setTimeout(resolve, 10));
  // Pending deliveries, and those the outbox has yet to expand.
  const [{ backlog }] = await db.$queryRaw<{ backlog: number }[]>`
    SELECT ((SELECT count(*) FROM webhook_deliveries WHERE organization_id = ${busy.id}::uuid AND state = 'pending')
      + (SELECT coalesce(sum(cardinality(subject_ids) * cardinality(endpoint_ids)), 0) FROM webhook_outbox
         WHERE organization_id = ${busy.id}::uuid))::int AS backlog`;
  probing = false;
  await probe;
  pingServer.close();
  // The loop is still attempting the busy organization's deliveries: a delete can meet its writes (a deadlock, one
  // side retried), so it is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.organization.deleteMany({ where: { id: { in: [busy.id, quiet.id] } } });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  return { importMs, apiCalls, apiMaxMs, pingMs: pinged - pingedAt, backlog };
}

const without: number[] = [];
const withTwo: number[] = [];
const rates: number[] = [];
// Deleted at the end, not per round: a delete of 2,000 reports slows the next import (dead rows, no autovacuum on
// the embedded database), which would land on whichever import came first.
const made: string[] = [];
// A round of each first, unmeasured: the first imports also warm the database's caches and the JIT.
await deliverEverything();
for (const endpoints of [0, 2]) {
  made.push((await timedImport(endpoints)).orgId);
  await deliverEverything();
}
for (let round = 0; round < ROUNDS; round++) {
  // In alternating order, so that drift in the machine's load favours neither.
  const order = round % 2 === 0 ? [0, 2] : [2, 0];
  const [first, second] = [await timedImport(order[0]!), await timedImport(order[1]!)];
  const [none, two] = order[0] === 0 ? [first, second] : [second, first];
  without.push(none.ms);
  withTwo.push(two.ms);
  if (process.env.BENCH_VERBOSE)
    console.log(`round ${round}: none ${none.ms.toFixed(0)} ms, two ${two.ms.toFixed(0)} ms`);
  const delivered = await deliverEverything();
  if (delivered.deliveries !== 2 * REPORTS) throw new Error(`delivered ${delivered.deliveries} of ${2 * REPORTS}`);
  rates.push((delivered.deliveries / delivered.ms) * 1000);
  made.push(none.orgId, two.orgId);
}
await db.organization.deleteMany({ where: { id: { in: made } } });

const fairness = await measureFairness();

const database = process.env.DATABASE_URL ? "PostgreSQL" : "embedded (PGlite, in memory)";
const cost = median(withTwo) / median(without) - 1;
console.log(`webhooks bench on ${database}, ${ROUNDS} rounds, medians:`);
console.log(`  import of ${REPORTS} reports, no endpoint:     ${median(without).toFixed(0)} ms`);
console.log(
  `  import of ${REPORTS} reports, two endpoints:   ${median(withTwo).toFixed(0)} ms  (outbox: ${(cost * 100).toFixed(1)}%, budget 10%)`,
);
console.log(
  `  deliveries to a loopback receiver:        ${median(rates).toFixed(0)} per second (${2 * REPORTS} per round)`,
);
console.log(
  `  fairness: ${FAIR_REPORTS} reports to ${MAX_ENDPOINTS_PER_ORGANIZATION} endpoints: import ${fairness.importMs.toFixed(0)} ms; ` +
    `meanwhile another organization's API answered ${fairness.apiCalls} calls, slowest ${fairness.apiMaxMs.toFixed(0)} ms, ` +
    `and its ping arrived after ${fairness.pingMs.toFixed(0)} ms (${fairness.backlog} of the ${FAIR_REPORTS * MAX_ENDPOINTS_PER_ORGANIZATION} still to deliver)`,
);
server.close();
process.exit(cost <= 0.1 ? 0 : 1);
