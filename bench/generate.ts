// Report generation (lib/generation), measured in process: one day of an organization of 1,000 people, generated from
// their updates (about 850 written that day, 20 working days of history, blockers carried, absences, KPI targets):
// the first generation (every report added) and the same day generated again (every report unchanged). Three days
// each, on the embedded database and, when DATABASE_URL names a PostgreSQL database, on it too. Goal: under 5 s.
//
//   npm run bench:generate                                  (embedded database, in memory)
//   DATABASE_URL=postgresql://…/db npm run bench:generate   (embedded, then that PostgreSQL database, migrated)
//
// `npm run bench` runs it after the API bench.
import { randomUUID } from "node:crypto";

const PEOPLE = 1_000;
const HISTORY_DAYS = 20;
const MEASURED_DAYS = 3;
const GOAL_MS = 5_000;

const postgresUrl = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
process.env.SUNDOWN_DATA_DIR = "memory://";
process.env.SUNDOWN_LOG_LEVEL ??= "warn";
// Seeding writes a day of updates in one statement: on a loaded machine, longer than the API's statement limit.
process.env.DATABASE_TIMEOUT_MS ??= "60000";

const { closeDb, getDb, installDbHandle, migratePostgres, openEmbedded, openPostgres } = await import("@/lib/db");
const { generateDay } = await import("@/lib/generation/store");
const { addDays, isoWeekday } = await import("@/lib/generation/calendar");
const { median } = await import("./stats");

/** The working days of the history, oldest first, ending on Friday 20 November 2026. */
function workingDays(): string[] {
  const days: string[] = [];
  for (let day = "2026-11-20"; days.length < HISTORY_DAYS; day = addDays(day, -1)) {
    if (isoWeekday(day) <= 5) days.unshift(day);
  }
  return days;
}

/** A deterministic "random" in [0, 1) for person i on day d. */
const chance = (i: number, d: number) => ((i * 7919 + d * 104_729) % 1_000) / 1_000;

async function seed() {
  const db = await getDb();
  const org = await db.organization.create({
    data: { slug: `bench-generate-${randomUUID().slice(0, 8)}`, name: "Bench generate", timeZone: "Asia/Kolkata" },
    select: { id: true, slug: true, name: true },
  });
  const members = Array.from({ length: PEOPLE }, (_, i) => ({
    id: randomUUID(),
    organizationId: org.id,
    name: `Person ${String(i).padStart(4, "0")}`,
    role: i === 0 ? ("founder" as const) : i % 25 === 1 ? ("lead" as const) : ("member" as const),
    department: i === 0 ? null : `Department ${i % 40}`,
    isExternal: i % 50 === 49,
    createdAt: new Date("2026-01-05T00:00:00Z"),
  }));
  await db.member.createMany({ data: members });
  await db.kpiTarget.createMany({
    data: [
      { organizationId: org.id, nameKey: "mrr", name: "MRR", target: 100_000, direction: "at_least", unit: "USD" },
      { organizationId: org.id, nameKey: "open bugs", name: "Open bugs", target: 30, direction: "at_most" },
    ],
  });
  const days = workingDays();
  for (const [d, day] of days.entries()) {
    const rows = members.flatMap((m, i) => {
      if (chance(i, d) >= 0.85) return [];
      const mayKpi = m.role !== "member";
      const content = {
        shipped: Array.from({ length: 1 + (i % 3) }, (_, k) => ({ title: `Change ${i}-${d}-${k}` })),
        slipping: i % 5 === 0 ? [{ item: `Project ${i % 17}`, ...(i % 10 === 0 ? { due: days[0] } : {}) }] : [],
        blockers: i % 7 === 0 ? [{ description: `Waiting on vendor ${i % 11}` }] : [],
        kpis: mayKpi
          ? [
              { name: "MRR", value: 90_000 + d * 800 },
              { name: "open bugs", value: 40 - d },
            ]
          : [],
        note: i % 4 === 0 ? `Note of person ${i} on ${day}` : null,
      };
      return [{ member_id: m.id, day, content }];
    });
    await db.$executeRawUnsafe(
      `INSERT INTO updates (organization_id, member_id, day, content, source)
       SELECT $1::uuid, r.member_id, r.day, r.content, 'import'::update_source
       FROM jsonb_to_recordset($2::jsonb) AS r(member_id uuid, day date, content jsonb)`,
      org.id,
      JSON.stringify(rows),
    );
  }
  await db.absence.createMany({
    data: members
      .filter((_, i) => i % 40 === 3)
      .map((m) => ({
        organizationId: org.id,
        memberId: m.id,
        firstDay: new Date(`${days.at(-6)}T00:00:00Z`),
        lastDay: new Date(`${days.at(-2)}T00:00:00Z`),
      })),
  });
  return { org, days };
}

async function measure(label: string) {
  const { org, days } = await seed();
  const first: number[] = [];
  const again: number[] = [];
  let reports = 0;
  for (const day of days.slice(-MEASURED_DAYS)) {
    let started = performance.now();
    const made = await generateDay(org, day);
    first.push(performance.now() - started);
    if (made.reports.some((r) => r.outcome !== "added")) throw new Error("expected every report added");
    reports = made.reports.length;
    started = performance.now();
    const repeat = await generateDay(org, day);
    again.push(performance.now() - started);
    if (repeat.reports.some((r) => r.outcome !== "unchanged")) throw new Error("expected every report unchanged");
  }
  const db = await getDb();
  await db.organization.delete({ where: { id: org.id } });
  const row = (what: string, samples: number[]) => {
    const ms = median(samples);
    console.log(
      `  ${what.padEnd(38)} ${ms.toFixed(0).padStart(5)} ms  (${Math.min(...samples).toFixed(0)}–${Math.max(...samples).toFixed(0)})  ${ms < GOAL_MS ? "within" : "MISSED"} the 5 s goal`,
    );
  };
  console.log(
    `generation bench on ${label}: one day of ${PEOPLE} people (${HISTORY_DAYS} days of updates), ${reports} reports, median (min–max) of ${MEASURED_DAYS} days:`,
  );
  row("first generation: all added", first);
  row("generated again: all unchanged", again);
}

installDbHandle(await openEmbedded("memory://", "cli"));
await measure("embedded (PGlite, in memory)");
await closeDb();
if (postgresUrl) {
  await migratePostgres(postgresUrl);
  installDbHandle(openPostgres(postgresUrl, 4));
  await measure("PostgreSQL");
  await closeDb();
}
process.exit(0);
