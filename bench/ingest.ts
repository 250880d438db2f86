// POST /ingest/v1/reports, measured in process: one call carrying 1,000 reports (a day of an organization of 1,000
// people, one member report each), sent three times: new (all added), again (all unchanged: the retry a job makes
// after a timeout) and corrected with replace=true (all replaced). Each round uses an organization of its own.
//
//   npm run bench:ingest [-- --rounds 5]               (embedded database, in memory)
//   DATABASE_URL=postgresql://…/db npm run bench:ingest (a migrated PostgreSQL database)
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";

const { values } = parseArgs({ options: { rounds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 5);
const REPORTS = 1000;

process.env.SUNDOWN_DATA_DIR ??= "memory://";
process.env.SUNDOWN_LOG_LEVEL ??= "warn";

const { getDb } = await import("@/lib/db");
const { createIngestToken } = await import("@/lib/data/ingest-tokens");
const { postIngestReports } = await import("@/lib/ingest/route");
const { median } = await import("./stats");

const db = await getDb();

async function organization() {
  const org = await db.organization.create({
    data: { slug: `bench-ingest-${randomUUID().slice(0, 8)}`, name: "Bench ingest" },
    select: { id: true },
  });
  const members = Array.from({ length: REPORTS }, (_, i) => ({
    id: randomUUID(),
    organizationId: org.id,
    name: `Person ${i}`,
    role: "member" as const,
  }));
  await db.member.createMany({ data: members });
  const { token } = await createIngestToken({ organizationId: org.id, name: "bench", actor: { label: "bench" } });
  return { id: org.id, token, members: members.map((m) => m.id) };
}

function body(members: string[], note: string): string {
  return JSON.stringify({
    reports: members.map((member, i) => ({
      scope: "member",
      scope_target_id: member,
      generated_at: "2026-11-20T18:00:00-08:00",
      report: {
        headline: `Person ${i}: 2 shipped, 1 slipping, 1 blocker`,
        kpi_status: [],
        shipped: [{ title: "Gripper firmware 2.4", owner: `Person ${i}` }, { title: "Pick-rate dashboard" }],
        silent: [],
        slipping: [{ item: "Warehouse pilot", owner: `Person ${i}`, days_late: 2, reason: note }],
        blockers: [{ description: "Waiting on vendor parts", owner: `Person ${i}`, since_days: 3 }],
      },
    })),
  });
}

async function timedCall(token: string, text: string, query = ""): Promise<{ ms: number; answer: unknown }> {
  const request = new Request(`http://localhost:3000/ingest/v1/reports${query}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: text,
  });
  const started = performance.now();
  const response = await postIngestReports(request);
  const answer = await response.json();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${JSON.stringify(answer)}`);
  return { ms, answer };
}

const expectCounts = (answer: unknown, counts: Record<string, number>) => {
  const got = (answer as { reports: Record<string, number> }).reports;
  for (const [outcome, n] of Object.entries(counts))
    if (got[outcome] !== n) throw new Error(`expected ${n} ${outcome}, got ${JSON.stringify(got)}`);
};

const added: number[] = [];
const unchanged: number[] = [];
const replaced: number[] = [];
const made: string[] = [];
let bytes = 0;
// One round first, unmeasured: it warms the database's caches and the JIT.
for (let round = -1; round < ROUNDS; round++) {
  const org = await organization();
  made.push(org.id);
  const first = body(org.members, "waiting on vendor parts");
  bytes = Buffer.byteLength(first);
  const corrected = body(org.members, "vendor parts arrive Monday");
  const a = await timedCall(org.token, first);
  expectCounts(a.answer, { added: REPORTS });
  const u = await timedCall(org.token, first);
  expectCounts(u.answer, { unchanged: REPORTS });
  const r = await timedCall(org.token, corrected, "?replace=true");
  expectCounts(r.answer, { replaced: REPORTS });
  if (round < 0) continue;
  added.push(a.ms);
  unchanged.push(u.ms);
  replaced.push(r.ms);
  if (process.env.BENCH_VERBOSE)
    console.log(`round ${round}: ${a.ms.toFixed(0)} / ${u.ms.toFixed(0)} / ${r.ms.toFixed(0)} ms`);
}
await db.organization.deleteMany({ where: { id: { in: made } } });

const database = process.env.DATABASE_URL ? "PostgreSQL" : "embedded (PGlite, in memory)";
const row = (label: string, samples: number[]) =>
  console.log(
    `  ${label.padEnd(34)} ${median(samples).toFixed(0).padStart(5)} ms  (${Math.min(...samples).toFixed(0)}–${Math.max(...samples).toFixed(0)})`,
  );
console.log(
  `ingest bench on ${database}: one POST of ${REPORTS} member reports (${(bytes / 1024).toFixed(0)} KB), ${ROUNDS} rounds, median (min–max):`,
);
row("new: all added", added);
row("sent again: all unchanged", unchanged);
row("corrected, replace=true: replaced", replaced);
process.exit(0);
