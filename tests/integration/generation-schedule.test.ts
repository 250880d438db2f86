import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeUpdates, type UpdateContent } from "@/lib/data/updates";
import { getDb } from "@/lib/db";
import { runGenerationPass } from "@/lib/generation/run";

// The schedule's two ways of going wrong quietly: a day whose generation fails must wait before it is tried again
// (the loop keeps passing while a pass attempted anything, so a day released at once would be claimed in a tight
// loop), and days missed while nothing ran must be caught up even when a write has already queued a later day.

let org: { id: string };
let memberId: string;
const content: UpdateContent = { shipped: [{ title: "Work" }], slipping: [], blockers: [], kpis: [], note: null };

beforeAll(async () => {
  const db = await getDb();
  org = await db.organization.create({
    data: { slug: `schedule-${randomUUID().slice(0, 8)}`, name: "Schedule Co" },
    select: { id: true },
  });
  memberId = (
    await db.member.create({
      data: { organizationId: org.id, name: "Ida", role: "member", createdAt: new Date("2026-01-01Z") },
      select: { id: true },
    })
  ).id;
});

afterAll(async () => {
  const db = await getDb();
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS refuse_schedule_reports ON reports`);
  await db.organization.delete({ where: { id: org.id } });
});

async function write(day: string) {
  const db = await getDb();
  await db.$transaction((tx) => writeUpdates(tx, org.id, [{ memberId, day, content, source: "import" }]));
}

async function row(day: string) {
  const db = await getDb();
  const [found] = await db.$queryRaw<{ generated: boolean; stale: boolean; held_for: number | null }[]>`
    SELECT generated_at IS NOT NULL AS generated, stale,
           extract(epoch FROM leased_until - now())::float8 AS held_for
    FROM report_generations WHERE organization_id = ${org.id}::uuid AND day = ${day}::date`;
  return found;
}

const passUntilDone = async (now: Date) => {
  for (let passes = 0; (await runGenerationPass(now, { organizationId: org.id })).attempted > 0; passes++) {
    expect(passes, "passes keep attempting: a day is claimed again and again").toBeLessThan(20);
  }
};

it("holds a day whose generation failed back for minutes, instead of claiming it again at once", async () => {
  const db = await getDb();
  // The database refuses this organization's reports, as a full disk or a broken constraint would.
  await db.$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION refuse_schedule_reports() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.organization_id = '${org.id}'::uuid THEN RAISE EXCEPTION 'refused for the test'; END IF;
      RETURN NEW;
    END $$`);
  await db.$executeRawUnsafe(`
    CREATE TRIGGER refuse_schedule_reports BEFORE INSERT ON reports
    FOR EACH ROW EXECUTE FUNCTION refuse_schedule_reports()`);
  await write("2026-10-05"); // a Monday; UTC, cutoff 18:00
  await passUntilDone(new Date("2026-10-05T18:01:00Z"));
  const failed = await row("2026-10-05");
  expect(failed).toMatchObject({ generated: false, stale: true });
  expect(failed!.held_for).toBeGreaterThan(240);
  expect(await db.report.count({ where: { organizationId: org.id } })).toBe(0);

  await db.$executeRawUnsafe(`DROP TRIGGER refuse_schedule_reports ON reports`);
  // Once the hold ends, the next pass generates it.
  await db.$executeRaw`UPDATE report_generations SET leased_until = now() - interval '1 second'
    WHERE organization_id = ${org.id}::uuid`;
  await passUntilDone(new Date("2026-10-05T18:05:00Z"));
  expect(await row("2026-10-05")).toMatchObject({ generated: true, stale: false, held_for: null });
  expect(await db.report.count({ where: { organizationId: org.id } })).toBe(2);
});

it("catches up the days missed while nothing ran, though a write already queued a later day", async () => {
  const db = await getDb();
  // Nothing ran from Monday's generation until Friday afternoon, when Ida writes Friday's update before the cutoff.
  await write("2026-10-09");
  await passUntilDone(new Date("2026-10-09T19:00:00Z"));
  for (const day of ["2026-10-06", "2026-10-07", "2026-10-08", "2026-10-09"]) {
    expect(await row(day), day).toMatchObject({ generated: true });
  }
  const silentDays = await db.report.findMany({
    where: { organizationId: org.id, scope: "org", generatedAt: { gt: new Date("2026-10-06T00:00:00Z") } },
    select: { headline: true },
    orderBy: { generatedAt: "asc" },
  });
  expect(silentDays.map((report) => report.headline)).toEqual([
    "Schedule Co: 0 shipped, 0 slipping, 0 blockers, 1 silent",
    "Schedule Co: 0 shipped, 0 slipping, 0 blockers, 1 silent",
    "Schedule Co: 0 shipped, 0 slipping, 0 blockers, 1 silent",
    "Schedule Co: 1 shipped, 0 slipping, 0 blockers",
  ]);
});

it("generates a day backfilled long ago, and not the empty days between it and the present", async () => {
  const db = await getDb();
  // A new team's first update is a day of last year, imported as history; nothing of theirs was generated before.
  const team = await db.organization.create({
    data: { slug: `backfill-${randomUUID().slice(0, 8)}`, name: "Backfill Co" },
    select: { id: true },
  });
  try {
    const { id: ola } = await db.member.create({
      data: { organizationId: team.id, name: "Ola", role: "member", createdAt: new Date("2025-01-01Z") },
      select: { id: true },
    });
    await db.$transaction((tx) =>
      writeUpdates(tx, team.id, [{ memberId: ola, day: "2025-03-03", content, source: "import" }]),
    );
    while ((await runGenerationPass(new Date("2026-10-09T19:30:00Z"), { organizationId: team.id })).attempted > 0);
    const generated = await db.reportGeneration.findMany({
      where: { organizationId: team.id, generatedAt: { not: null } },
      select: { day: true },
      orderBy: { day: "asc" },
    });
    // The backfilled day, then the last two weeks' working days (catch-up), and nothing in between.
    expect(generated.map((g) => g.day.toISOString().slice(0, 10))).toEqual([
      "2025-03-03",
      "2026-09-25",
      "2026-09-28",
      "2026-09-29",
      "2026-09-30",
      "2026-10-01",
      "2026-10-02",
      "2026-10-05",
      "2026-10-06",
      "2026-10-07",
      "2026-10-08",
      "2026-10-09",
    ]);
  } finally {
    await db.organization.delete({ where: { id: team.id } });
  }
});
