// `sundown updates import` and POST /ingest/v1/updates, measured in process (lib/data/update-import.ts): a week of
// an organization of 1,000 people as a CSV (5 days, a shipped item and a blocker each: 10,000 rows, 5,000 updates),
// imported new (all added), again (all unchanged: the retry after a timeout) and changed (all replaced). The
// writes go through writeUpdates, one upsert per person-day: the figure bounds the import's row limit, which must
// stay inside its transaction's 120 s on either database.
//
//   npm run bench:updates                                 (embedded database, in memory)
//   DATABASE_URL=postgresql://…/db npm run bench:updates  (a migrated PostgreSQL database)
import { randomUUID } from "node:crypto";

const PEOPLE = 1000;
const DAYS = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"];

process.env.SUNDOWN_DATA_DIR ??= "memory://";
process.env.SUNDOWN_LOG_LEVEL ??= "warn";

const { getDb } = await import("@/lib/db");
const { importUpdates, readUpdateFile } = await import("@/lib/data/update-import");

const db = await getDb();
const org = await db.organization.create({
  data: { slug: `bench-updates-${randomUUID().slice(0, 8)}`, name: "Bench updates" },
  select: { id: true },
});
await db.member.createMany({
  data: Array.from({ length: PEOPLE }, (_, i) => ({
    organizationId: org.id,
    name: `Person ${i}`,
    role: "member" as const,
    email: `person-${i}@bench.example`,
  })),
});

function week(blocker: string): string {
  const rows = ["date,email,section,text"];
  for (const day of DAYS) {
    for (let i = 0; i < PEOPLE; i++) {
      rows.push(`${day},person-${i}@bench.example,shipped,Shipped item ${i}`);
      rows.push(`${day},person-${i}@bench.example,blocker,${blocker} ${i}`);
    }
  }
  return rows.join("\n");
}

const database = process.env.DATABASE_URL ? "PostgreSQL" : "embedded";
for (const [label, text] of [
  ["new", week("Waiting on parts")],
  ["again", week("Waiting on parts")],
  ["changed", week("Waiting on the vendor")],
] as const) {
  const started = performance.now();
  const result = await importUpdates(org.id, readUpdateFile(text, "csv"), {
    actor: { label: "bench" },
    source: "import",
  });
  const ms = Math.round(performance.now() - started);
  console.log(
    `${database}  ${label.padEnd(8)} ${DAYS.length * PEOPLE * 2} rows  ${ms} ms  ${JSON.stringify(result.updates)}`,
  );
}
await db.organization.delete({ where: { id: org.id } });
process.exit(0);
