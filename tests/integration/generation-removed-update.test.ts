import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { deleteUpdate, writeUpdates } from "@/lib/data/updates";
import { getDb } from "@/lib/db";
import { runGenerationPass } from "@/lib/generation/run";

// A member whose only update of a day is removed after the day was generated: within the grace, the day is generated
// again, their member report is deleted (report.deleted), and the organization report now lists them as silent
// (report.updated). Past the grace, a removal changes nothing until `sundown reports generate`.

let org: { id: string };
let people: { ana: string; bo: string };
const DAY = "2026-11-10"; // a Tuesday; UTC, cutoff 18:00

beforeAll(async () => {
  const db = await getDb();
  org = await db.organization.create({
    data: { slug: `removed-${randomUUID().slice(0, 8)}`, name: "Removal Co" },
    select: { id: true },
  });
  const person = async (name: string) =>
    (
      await db.member.create({
        data: { organizationId: org.id, name, role: "member", createdAt: new Date("2026-01-01Z") },
        select: { id: true },
      })
    ).id;
  people = { ana: await person("Ana"), bo: await person("Bo") };
  await db.webhookEndpoint.create({
    data: {
      organizationId: org.id,
      url: "https://hooks.example.invalid/sundown",
      events: ["report.published", "report.updated", "report.deleted"],
      secretSealed: "sealed",
    },
    select: { id: true },
  });
  const content = { shipped: [{ title: "Work" }], slipping: [], blockers: [], kpis: [], note: null };
  await db.$transaction((tx) =>
    writeUpdates(tx, org.id, [
      { memberId: people.ana, day: DAY, content, source: "import" },
      { memberId: people.bo, day: DAY, content, source: "import" },
    ]),
  );
});

afterAll(async () => {
  const db = await getDb();
  await db.organization.delete({ where: { id: org.id } });
});

const passUntilDone = async (now: Date) => {
  while ((await runGenerationPass(now, { organizationId: org.id })).attempted > 0);
};

it("deletes the member report of an update removed within the grace, and lists the member as silent", async () => {
  const db = await getDb();
  await passUntilDone(new Date(`${DAY}T18:01:00Z`));
  const before = await db.report.findMany({
    where: { organizationId: org.id },
    select: { id: true, scope: true, scopeTargetId: true },
  });
  expect(before.map((r) => r.scope).sort()).toEqual(["member", "member", "org"]);
  const boReport = before.find((r) => r.scopeTargetId === people.bo)!;
  const orgReport = before.find((r) => r.scope === "org")!;
  const eventsBefore = await db.webhookOutbox.count({ where: { organizationId: org.id } });

  await db.$transaction((tx) => deleteUpdate(tx, org.id, people.bo, DAY));
  await passUntilDone(new Date(`${DAY}T20:00:00Z`));

  const after = await db.report.findMany({
    where: { organizationId: org.id },
    select: { id: true, scope: true, content: true },
  });
  expect(after.map((r) => r.id).sort()).toEqual(
    [orgReport.id, before.find((r) => r.scopeTargetId === people.ana)!.id].sort(),
  );
  const orgContent = after.find((r) => r.scope === "org")!.content as { headline: string; silent: unknown[] };
  expect(orgContent.headline).toBe("Removal Co: 1 shipped, 0 slipping, 0 blockers, 1 silent");
  expect(orgContent.silent).toEqual([{ member: "Bo", member_id: people.bo, days_silent: 1 }]);
  const events = await db.webhookOutbox.findMany({
    where: { organizationId: org.id },
    select: { type: true, subjectIds: true },
    orderBy: { createdAt: "asc" },
    skip: eventsBefore,
  });
  expect(events.map((e) => [e.type, e.subjectIds])).toEqual(
    expect.arrayContaining([
      ["report.updated", [orgReport.id]],
      ["report.deleted", [boReport.id]],
    ]),
  );
  expect(events).toHaveLength(2);
});

it("past the grace, a removal leaves the day as generated", async () => {
  const db = await getDb();
  await db.$transaction((tx) => deleteUpdate(tx, org.id, people.ana, DAY));
  await passUntilDone(new Date("2026-11-18T18:01:00Z"));
  const reports = await db.report.findMany({ where: { organizationId: org.id }, select: { scope: true } });
  expect(reports.map((r) => r.scope).sort()).toEqual(["member", "org"]);
});
