import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listActivity } from "@/lib/data/activity";
import { listAbsences } from "@/lib/data/absences";
import { UpdateImportError, type UpdateFileFormat, type UpdateImportProblem } from "@/lib/data/update-file";
import { importUpdates, readUpdateFile } from "@/lib/data/update-import";
import { dayText, dayValue } from "@/lib/data/updates";
import { getDb } from "@/lib/db";
import { createTeamOrg, type TeamOrg } from "../helpers/team-org";

// The updates import (lib/data/update-file.ts, lib/data/update-import.ts) that `sundown updates import` and
// POST /ingest/v1/updates share: people by e-mail or member id, a person's day replaced as a whole, idempotent,
// all or nothing with every problem named by row and field.

const CLI = { label: "cli" } as const;
// Noon UTC on Saturday 21 November 2026: "today" is the 21st in UTC, the 22nd in Kiritimati (UTC+14).
const NOW = new Date("2026-11-21T12:00:00Z");
let org: TeamOrg;

beforeAll(async () => {
  await getDb();
});

beforeEach(async () => {
  org = await createTeamOrg();
});

const formatOf = (text: string): UpdateFileFormat => (/^\s*[[{]/.test(text) ? "json" : "csv");

const run = async (text: string, options: { dryRun?: boolean; now?: Date } = {}) =>
  importUpdates(org.id, readUpdateFile(text, formatOf(text)), { actor: CLI, source: "import", now: NOW, ...options });

async function problemsOf(promise: () => Promise<unknown>): Promise<UpdateImportProblem[]> {
  const error = await promise().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpdateImportError);
  return (error as UpdateImportError).problems;
}

/** The organization's updates as stored: who (by name), which day, what, from where. */
async function storedUpdates() {
  const db = await getDb();
  const rows = await db.update.findMany({
    where: { organizationId: org.id },
    select: { day: true, content: true, source: true, member: { select: { name: true } } },
    orderBy: [{ day: "asc" }, { member: { name: "asc" } }],
  });
  return rows.map((r) => ({ name: r.member.name, day: dayText(r.day), source: r.source, content: r.content }));
}

async function generations() {
  const db = await getDb();
  const rows = await db.reportGeneration.findMany({
    where: { organizationId: org.id },
    select: { day: true, stale: true, generatedAt: true },
    orderBy: { day: "asc" },
  });
  return rows.map((r) => ({ day: dayText(r.day), stale: r.stale, generated: r.generatedAt !== null }));
}

const csv = (...rows: string[]) => ["date,email,section,text,reason,due,value,unit", ...rows].join("\n");

describe("a CSV of updates", () => {
  const file = () =>
    csv(
      `2026-11-20,${org.member.email},shipped,Released gripper firmware 2.3,,,,`,
      `2026-11-20,${org.member.email.toUpperCase()},slipping,Warehouse pilot,waiting on the survey,2026-11-18,,`,
      `2026-11-20,${org.member.email},blocker,"Vendor parts, held at customs",,,,`,
      `2026-11-20,${org.member.email},note,Call me on +44 20 7946 0958,,,,`,
      `2026-11-20,${org.member.email},note,or mia@example.org,,,,`,
      `2026-11-20,${org.lead.email},kpi,Units shipped,,,42.5,units`,
      `2026-11-19,${org.lead.email},shipped,Hired a technician,,,,`,
    );

  it("makes one update per person and day, in the stored shape, contact details as written", async () => {
    const result = await run(file());
    expect(result).toEqual({
      updates: { added: 3, unchanged: 0, replaced: 0 },
      absences: { added: 0, unchanged: 0 },
      dryRun: false,
    });
    expect(await storedUpdates()).toEqual([
      {
        name: "Leo Lead",
        day: "2026-11-19",
        source: "import",
        content: { shipped: [{ title: "Hired a technician" }], slipping: [], blockers: [], kpis: [], note: null },
      },
      {
        name: "Leo Lead",
        day: "2026-11-20",
        source: "import",
        content: {
          shipped: [],
          slipping: [],
          blockers: [],
          kpis: [{ name: "Units shipped", value: 42.5, unit: "units" }],
          note: null,
        },
      },
      {
        name: "Mia Member",
        day: "2026-11-20",
        source: "import",
        content: {
          shipped: [{ title: "Released gripper firmware 2.3" }],
          slipping: [{ item: "Warehouse pilot", reason: "waiting on the survey", due: "2026-11-18" }],
          blockers: [{ description: "Vendor parts, held at customs" }],
          kpis: [],
          note: "Call me on +44 20 7946 0958\nor mia@example.org",
        },
      },
    ]);
    // Queued for generation: days never generated, written now.
    expect(await generations()).toEqual([
      { day: "2026-11-19", stale: false, generated: false },
      { day: "2026-11-20", stale: false, generated: false },
    ]);
    const [line] = await listActivity(org.id, ["updates"]);
    expect(line).toMatchObject({
      actor: "cli",
      action: "imported",
      subject: { label: "3 updates" },
      detail: { updates_added: 3, updates_replaced: 0, updates_unchanged: 0, absences_added: 0 },
    });
  });

  it("again changes nothing: every update unchanged, no line in the trail, generated days left alone", async () => {
    await run(file());
    const db = await getDb();
    // The 19th has been generated since: an import that changes nothing must not make it stale.
    await db.reportGeneration.updateMany({
      where: { organizationId: org.id },
      data: { stale: false, generatedAt: new Date() },
    });
    const before = await storedUpdates();
    const trail = await listActivity(org.id, ["updates"]);
    expect(await run(file())).toMatchObject({ updates: { added: 0, unchanged: 3, replaced: 0 } });
    expect(await storedUpdates()).toEqual(before);
    expect(await listActivity(org.id, ["updates"])).toEqual(trail);
    expect((await generations()).map((g) => g.stale)).toEqual([false, false]);
  });

  it("changed, replaces each changed person's whole day and marks that day's generated reports stale", async () => {
    await run(file());
    const db = await getDb();
    await db.reportGeneration.updateMany({
      where: { organizationId: org.id },
      data: { stale: false, generatedAt: new Date() },
    });
    const changed = csv(
      `2026-11-20,${org.member.email},shipped,Released gripper firmware 2.4,,,,`,
      `2026-11-19,${org.lead.email},shipped,Hired a technician,,,,`,
    );
    expect(await run(changed)).toMatchObject({ updates: { added: 0, unchanged: 1, replaced: 1 } });
    const mia = (await storedUpdates()).find((u) => u.name === "Mia Member");
    expect(mia!.content).toEqual({
      shipped: [{ title: "Released gripper firmware 2.4" }],
      slipping: [],
      blockers: [],
      kpis: [],
      note: null,
    });
    expect(await generations()).toEqual([
      { day: "2026-11-19", stale: false, generated: true },
      { day: "2026-11-20", stale: true, generated: true },
    ]);
  });

  it("with problems is refused whole, each named by row and field, and writes nothing", async () => {
    await run(file());
    const before = await storedUpdates();
    const problems = await problemsOf(() =>
      run(
        csv(
          `2026-11-20,${org.member.email},shipped,Fine on its own,,,,`,
          `2026-11-20,nobody@team.example,shipped,Something,,,,`,
          `2026-11-20,${org.member.email},done,Something,,,,`,
          `2026-11-20,${org.member.email},kpi,Revenue,,,100,`,
          `2026-11-22,${org.founder.email},shipped,Tomorrow's work,,,,`,
          `2026-11-20,${org.founder.email},kpi,Revenue,,,"1,5",`,
          `2026-11-20,${org.founder.email},slipping,Pilot,,2026-02-30,,`,
          `2026-11-20,${org.founder.email},shipped,Pilot,,2026-11-30,,`,
          `20/11/2026,${org.founder.email},blocker,,,,,`,
        ),
      ),
    );
    expect(problems).toEqual([
      { row: "row 3", field: "email", message: "no one of the roster has this address (see `sundown members list`)" },
      { row: "row 4", field: "section", message: "unknown section: use shipped, slipping, blocker, kpi, note, away" },
      { row: "row 5", field: "section", message: "only founders and leads report KPI values; Mia Member is a member" },
      {
        row: "row 6",
        field: "date",
        message: "is after today (2026-11-21 in UTC): an update is written on its day or later",
      },
      { row: "row 7", field: "value", message: "must be a number such as 12 or -3.5" },
      { row: "row 8", field: "due", message: "must be a date as YYYY-MM-DD" },
      { row: "row 9", field: "due", message: "only for slipping rows" },
      { row: "row 10", field: "date", message: "must be a date as YYYY-MM-DD" },
      { row: "row 10", field: "text", message: "must not be empty" },
    ]);
    expect(await storedUpdates()).toEqual(before);
  });

  it("names unknown and missing columns", async () => {
    const problems = await problemsOf(() => run("day,email,section,notes\n2026-11-20,a@b.example,note,x"));
    expect(problems).toEqual([
      { row: "row 1", field: '"day"', message: expect.stringMatching(/^unknown column; the columns are date, email/) },
      { row: "row 1", field: '"notes"', message: expect.stringMatching(/^unknown column/) },
      { row: "row 1", field: "date", message: "this column is required" },
      { row: "row 1", field: "text", message: "this column is required" },
    ]);
  });

  it("takes the day in the organization's time zone: tomorrow in UTC is today in Kiritimati", async () => {
    const line = `2026-11-22,${org.member.email},shipped,Early start`;
    const header = "date,email,section,text";
    expect(await problemsOf(() => run(`${header}\n${line}`))).toMatchObject([{ row: "row 2", field: "date" }]);
    const db = await getDb();
    await db.organization.update({ where: { id: org.id }, data: { timeZone: "Pacific/Kiritimati" } });
    expect(await run(`${header}\n${line}`)).toMatchObject({ updates: { added: 1 } });
    // Days long past are taken too: a team backfilling its history.
    expect(await run(`${header}\n2019-03-04,${org.member.email},shipped,The first prototype`)).toMatchObject({
      updates: { added: 1 },
    });
    expect(await problemsOf(() => run(`${header}\n1969-12-31,${org.member.email},shipped,Moon landing`))).toEqual([
      { row: "row 2", field: "date", message: "must be 1970-01-01 or later" },
    ]);
  });

  it("records absences from `away` rows, once: the same stretch again is unchanged", async () => {
    const db = await getDb();
    await db.reportGeneration.create({
      data: { organizationId: org.id, day: dayValue("2026-11-17"), generatedAt: new Date(), stale: false },
    });
    const away = [
      "date,email,section,text,until",
      `2026-11-16,${org.member.email},away,,2026-11-20`,
      `2026-11-30,${org.lead.email},away,holiday,`,
    ].join("\n");
    expect(await run(away)).toMatchObject({ absences: { added: 2, unchanged: 0 } });
    expect(await run(away)).toMatchObject({ absences: { added: 0, unchanged: 2 } });
    const absences = await listAbsences(org.id);
    expect(absences.map(({ memberId, firstDay, lastDay }) => ({ memberId, firstDay, lastDay }))).toEqual([
      { memberId: org.member.memberId, firstDay: "2026-11-16", lastDay: "2026-11-20" },
      { memberId: org.lead.memberId, firstDay: "2026-11-30", lastDay: "2026-11-30" },
    ]);
    expect(await generations()).toEqual([{ day: "2026-11-17", stale: true, generated: true }]);
    const backwards = `date,email,section,text,until\n2026-11-20,${org.member.email},away,,2026-11-16`;
    expect(await problemsOf(() => run(backwards))).toEqual([
      { row: "row 2", field: "until", message: "must be on or after 2026-11-20, the absence's first day" },
    ]);
  });

  it("in a dry run counts what it would do and writes nothing", async () => {
    const result = await run(file(), { dryRun: true });
    expect(result).toMatchObject({ updates: { added: 3 }, dryRun: true });
    expect(await storedUpdates()).toEqual([]);
    expect(await generations()).toEqual([]);
    expect(await listActivity(org.id, ["updates"])).toEqual([]);
  });
});

describe("a JSON batch of updates", () => {
  const batch = () => ({
    updates: [
      {
        date: "2026-11-20",
        email: org.member.email,
        shipped: ["Released gripper firmware 2.3", { title: "Fixed the charger" }],
        slipping: ["Warehouse pilot", { item: "Docs", reason: "review", due: "2026-11-19" }],
        blockers: ["Vendor parts"],
        note: "Back tomorrow.",
      },
      { date: "2026-11-20", member_id: org.lead.memberId, kpis: [{ name: "NPS", value: 61 }] },
    ],
    absences: [{ email: org.founder.email, from: "2026-11-23", to: "2026-11-27" }],
  });

  it("is normalised into the stored shape, and the same batch again changes nothing", async () => {
    const text = JSON.stringify(batch());
    expect(await run(text)).toMatchObject({
      updates: { added: 2, unchanged: 0, replaced: 0 },
      absences: { added: 1, unchanged: 0 },
    });
    const stored = await storedUpdates();
    expect(stored.map((u) => [u.name, u.content])).toEqual([
      ["Leo Lead", { shipped: [], slipping: [], blockers: [], kpis: [{ name: "NPS", value: 61 }], note: null }],
      [
        "Mia Member",
        {
          shipped: [{ title: "Released gripper firmware 2.3" }, { title: "Fixed the charger" }],
          slipping: [{ item: "Warehouse pilot" }, { item: "Docs", reason: "review", due: "2026-11-19" }],
          blockers: [{ description: "Vendor parts" }],
          kpis: [],
          note: "Back tomorrow.",
        },
      ],
    ]);
    expect(await run(text)).toMatchObject({
      updates: { added: 0, unchanged: 2, replaced: 0 },
      absences: { added: 0, unchanged: 1 },
    });
    expect(await storedUpdates()).toEqual(stored);
    const [line] = await listActivity(org.id, ["updates"]);
    expect(line).toMatchObject({ subject: { label: "2 updates, 1 absence" }, detail: { absences_added: 1 } });
  });

  it("with problems names each entry and field, and writes nothing", async () => {
    const other = await createTeamOrg();
    const bad = {
      updates: [
        { date: "2026-11-20", email: org.member.email, kpis: [{ name: "NPS", value: 61 }] },
        { date: "2026-11-20", email: org.member.email, shipped: ["Again"] },
        { date: "2026-11-20", member_id: other.member.memberId, shipped: ["Elsewhere"] },
        { date: "2026-11-20", email: org.lead.email, slipping: [{ item: "Pilot", due: "soon" }], colour: "red" },
        { date: "2026-11-20", email: org.lead.email, kpis: [{ name: "NPS", value: "61" }] },
        { date: "2026-11-20", email: org.founder.email },
      ],
      absences: [{ email: org.member.email, from: "2026-11-20" }],
    };
    const problems = await problemsOf(() => run(JSON.stringify(bad)));
    expect(problems).toEqual([
      {
        row: "updates[0]",
        field: "kpis",
        message: "only founders and leads report KPI values; Mia Member is a member",
      },
      { row: "updates[1]", field: "date", message: "the same person and date as updates[0]" },
      { row: "updates[2]", field: "member_id", message: "no member of the organization has this id" },
      { row: "updates[3]", field: "slipping[0].due", message: "must be a date as YYYY-MM-DD" },
      {
        row: "updates[3]",
        field: '"colour"',
        message: expect.stringMatching(/^unknown field; the fields are date, email, member_id/),
      },
      { row: "updates[4]", field: "kpis[0].value", message: "must be a number" },
      {
        row: "updates[5]",
        field: "note",
        message: "the update says nothing: give at least one of shipped, slipping, blockers, kpis, note",
      },
      { row: "absences[0]", field: "to", message: "required: a date as YYYY-MM-DD" },
    ]);
    expect(await storedUpdates()).toEqual([]);
    expect(await listAbsences(org.id)).toEqual([]);
  });

  it.each([
    ["not JSON", "{ updates: [", /^not valid JSON: /],
    ["an array", "[]", /^expected an object \{ "updates"/],
    ["no batches", '{"reports": []}', /^expected an object/],
    ["updates not an array", '{"updates": {}}', /^must be an array$/],
    ["nothing in it", '{"updates": [], "absences": []}', /^no updates and no absences$/],
  ])("refuses %s as a whole file", async (_label, text, message) => {
    const problems = await problemsOf(() => run(text));
    expect(problems).toEqual([expect.objectContaining({ row: "file", message: expect.stringMatching(message) })]);
  });

  it("refuses a file over the limits before reading it", async () => {
    const many = { absences: Array.from({ length: 10_001 }, () => ({ email: "a@b.example", from: "x", to: "y" })) };
    expect(await problemsOf(() => run(JSON.stringify(many)))).toEqual([
      { row: "file", message: "10001 updates and absences is more than 10000; split the file" },
    ]);
    const big = `date,email,section,text\n${"2026-11-20,a@b.example,note,x\n".repeat(200_000)}`;
    expect(await problemsOf(() => run(big))).toEqual([{ row: "file", message: "larger than 5242880 bytes" }]);
  });
});
