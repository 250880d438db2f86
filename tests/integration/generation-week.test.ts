import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAbsences } from "@/lib/data/absences";
import { writeUpdates, type UpdateContent } from "@/lib/data/updates";
import { getDb, getDbHandle, installDbHandle, openPostgres, type DbHandle } from "@/lib/db";
import { runGenerationPass } from "@/lib/generation/run";
import { hasPgBouncer, startPgBouncer, type ThrowawayPgBouncer } from "../helpers/pgbouncer";

// The fixture week (issue 38): Pelican Labs, in São Paulo (UTC−3, cutoff 18:00 = 21:00 UTC), Monday 2 to Friday 6
// November 2026. Each day its people write, then a pass runs a minute after the cutoff. Ana carries a blocker from
// Monday to Thursday (skipping Wednesday) and resolves it on Friday; Bruno skips Tuesday and Wednesday, is away on
// Thursday, and writes his Wednesday late, on Friday night; the founder's MRR crosses its target. Every generated
// report is compared field by field with the expected objects below. Run on both databases, and through PgBouncer.

// The pooler is a throwaway PgBouncer of this file's own (transaction mode, as CI's), in front of the test server.
const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
if (process.env.CI === "true" && process.env.DATABASE_URL && !hasPgBouncer()) {
  throw new Error("The fixture week runs through PgBouncer too: install pgbouncer.");
}

const DAYS = ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"] as const;
const at = (day: string, time = "21:00") => new Date(`${day}T${time}:00.000Z`);
const update = (content: Partial<UpdateContent>): UpdateContent => ({
  shipped: [],
  slipping: [],
  blockers: [],
  kpis: [],
  note: null,
  ...content,
});

const DISK = "Staging database is out of disk";
const ONBOARDING = { item: "Onboarding emails", reason: "Copy not approved" };
const BILLING = { item: "Billing migration", due: "2026-11-03" };

type People = Record<"ana" | "bruno" | "carla" | "davi" | "fernanda" | "lucas", string>;

interface Week {
  org: { id: string; slug: string };
  people: People;
  /** Each report of the organization, by "<day> <scope> <target name or org>". */
  reports: () => Promise<Map<string, { id: string; content: unknown }>>;
  outbox: () => Promise<{ type: string; subject: string }[]>;
  reportCount: () => Promise<number>;
}

async function setUpWeek(): Promise<Week> {
  const db = await getDb();
  const org = await db.organization.create({
    data: { slug: `pelican-${randomUUID().slice(0, 8)}`, name: "Pelican Labs", timeZone: "America/Sao_Paulo" },
    select: { id: true, slug: true },
  });
  const joined = new Date("2026-10-01T12:00:00.000Z");
  const person = async (name: string, role: "founder" | "lead" | "member", extra: object = {}) =>
    (
      await db.member.create({
        data: { organizationId: org.id, name, role, createdAt: joined, ...extra },
        select: { id: true },
      })
    ).id;
  const people: People = {
    ana: await person("Ana Lima", "member", { department: "Engineering" }),
    bruno: await person("Bruno Costa", "member", { department: "Engineering" }),
    carla: await person("Carla Dias", "member", { department: "Engineering", isExternal: true }),
    davi: await person("Davi Rocha", "member", { department: "Engineering", active: false }),
    fernanda: await person("Fernanda Alves", "founder"),
    lucas: await person("Lucas Melo", "lead", { department: "Engineering" }),
  };
  await db.kpiTarget.create({
    data: { organizationId: org.id, nameKey: "mrr", name: "MRR", target: 50_000, direction: "at_least", unit: "USD" },
  });
  await db.webhookEndpoint.create({
    data: {
      organizationId: org.id,
      url: "https://hooks.example.invalid/sundown",
      events: ["report.published", "report.updated", "report.deleted"],
      secretSealed: "sealed",
    },
    select: { id: true },
  });
  const names = new Map(Object.values(people).map((id, i) => [id, Object.keys(people)[i]!]));
  return {
    org,
    people,
    async reports() {
      const rows = await db.report.findMany({
        where: { organizationId: org.id },
        select: { id: true, scope: true, scopeTargetId: true, generatedAt: true, content: true },
      });
      return new Map(
        rows.map((r) => [
          `${r.generatedAt.toISOString().slice(0, 10)} ${r.scope} ${r.scopeTargetId ? names.get(r.scopeTargetId) : "org"}`,
          { id: r.id, content: r.content },
        ]),
      );
    },
    async outbox() {
      const rows = await db.webhookOutbox.findMany({
        where: { organizationId: org.id },
        select: { type: true, subjectIds: true },
        orderBy: { createdAt: "asc" },
      });
      return rows.flatMap((r) => r.subjectIds.map((subject) => ({ type: r.type, subject })));
    },
    reportCount: () => db.report.count({ where: { organizationId: org.id } }),
  };
}

async function write(week: Week, day: string, updates: [keyof People, UpdateContent][]) {
  const db = await getDb();
  await db.$transaction((tx) =>
    writeUpdates(
      tx,
      week.org.id,
      updates.map(([who, content]) => ({ memberId: week.people[who], day, content, source: "import" })),
    ),
  );
}

/**
 * Passes at `now` over the week's organization until one finds nothing due. Scoped to it: other files' organizations,
 * on the same database at the same time, have days of their own that a pass must not generate under their feet.
 */
async function passUntilDone(week: Week, now: Date) {
  while ((await runGenerationPass(now, { organizationId: week.org.id })).attempted > 0);
}

async function liveWeek(week: Week) {
  const db = await getDb();
  await db.$transaction((tx) =>
    writeAbsences(tx, week.org.id, [{ memberId: week.people.bruno, firstDay: DAYS[3], lastDay: DAYS[3] }]),
  );
  const days: [keyof People, UpdateContent][][] = [
    [
      ["fernanda", update({ shipped: [{ title: "Pricing page" }], kpis: [{ name: "MRR", value: 44_000 }] })],
      ["lucas", update({ shipped: [{ title: "API v2" }], slipping: [BILLING] })],
      ["ana", update({ shipped: [{ title: "Login fix" }], blockers: [{ description: DISK }] })],
      ["bruno", update({ shipped: [{ title: "Search index" }] })],
    ],
    [
      ["ana", update({ blockers: [{ description: "staging database is out of disk!" }], slipping: [ONBOARDING] })],
      ["lucas", update({ slipping: [BILLING], note: "Hiring call at 3" })],
    ],
    [
      ["fernanda", update({ kpis: [{ name: "mrr", value: 46_000, unit: "USD" }] })],
      ["lucas", update({ slipping: [BILLING] })],
    ],
    [
      ["ana", update({ blockers: [{ description: DISK }], slipping: [ONBOARDING] })],
      ["lucas", update({ shipped: [{ title: "Billing migration" }] })],
    ],
    [
      ["ana", update({ shipped: [{ title: "Staging disk resized" }], slipping: [ONBOARDING] })],
      ["bruno", update({ shipped: [{ title: "Search launch" }] })],
      ["fernanda", update({ kpis: [{ name: "MRR", value: 51_000 }] })],
    ],
  ];
  for (const [i, day] of DAYS.entries()) {
    await write(week, day, days[i]!);
    // Before the cutoff nothing is due; a minute after it, the day is generated.
    await passUntilDone(week, at(day, "20:59"));
    expect([...(await week.reports()).keys()].filter((k) => k.startsWith(day))).toEqual([]);
    await passUntilDone(week, at(day, "21:01"));
  }
}

function expectations(p: People) {
  const ana = { owner: "Ana Lima", member_id: p.ana };
  const bruno = { owner: "Bruno Costa", member_id: p.bruno };
  const fernanda = { owner: "Fernanda Alves", member_id: p.fernanda };
  const lucas = { owner: "Lucas Melo", member_id: p.lucas };
  const mrr = (value: number, status: string) => ({
    name: "MRR",
    value,
    unit: "USD",
    target: 50_000,
    status,
    ...fernanda,
  });
  const diskSince = (since_days: number, description = DISK) => ({
    description,
    ...ana,
    since_days,
    since: "2026-11-02",
  });
  const onboarding = (days_late: number) => ({
    item: "Onboarding emails",
    ...ana,
    days_late,
    reason: "Copy not approved",
  });
  const billing = (days_late: number) => ({ item: "Billing migration", ...lucas, days_late, due: "2026-11-03" });
  const silent = (who: { owner: string; member_id: string }, days_silent: number) => ({
    member: who.owner,
    member_id: who.member_id,
    days_silent,
  });
  return {
    "2026-11-02 member fernanda": {
      headline: "Fernanda Alves: 1 shipped, 0 slipping, 0 blockers",
      day: "2026-11-02",
      shipped: [{ title: "Pricing page", ...fernanda }],
      slipping: [],
      blockers: [],
      silent: [],
      kpi_status: [mrr(44_000, "off_track")],
      notes: [],
    },
    "2026-11-02 org org": {
      headline: "Pelican Labs: 4 shipped, 1 slipping, 1 blocker",
      day: "2026-11-02",
      shipped: [
        { title: "Login fix", ...ana },
        { title: "Search index", ...bruno },
        { title: "Pricing page", ...fernanda },
        { title: "API v2", ...lucas },
      ],
      slipping: [billing(0)],
      blockers: [diskSince(0)],
      silent: [],
      kpi_status: [mrr(44_000, "off_track")],
      notes: [],
    },
    "2026-11-03 lead lucas": {
      headline: "Lucas Melo: 0 shipped, 2 slipping, 1 blocker, 1 silent",
      day: "2026-11-03",
      shipped: [],
      slipping: [onboarding(0), billing(0)],
      blockers: [diskSince(1, "staging database is out of disk!")],
      silent: [silent(bruno, 1)],
      kpi_status: [],
      notes: [{ text: "Hiring call at 3", ...lucas }],
    },
    "2026-11-03 org org": {
      headline: "Pelican Labs: 0 shipped, 2 slipping, 1 blocker, 2 silent",
      day: "2026-11-03",
      shipped: [],
      slipping: [onboarding(0), billing(0)],
      blockers: [diskSince(1, "staging database is out of disk!")],
      silent: [silent(bruno, 1), silent(fernanda, 1)],
      kpi_status: [],
      notes: [{ text: "Hiring call at 3", ...lucas }],
    },
    wednesdayBefore: {
      headline: "Pelican Labs: 0 shipped, 2 slipping, 1 blocker, 2 silent",
      day: "2026-11-04",
      shipped: [],
      slipping: [onboarding(1), billing(1)],
      blockers: [diskSince(2, "staging database is out of disk!")],
      silent: [silent(ana, 1), silent(bruno, 2)],
      kpi_status: [mrr(46_000, "at_risk")],
      notes: [],
    },
    "2026-11-04 org org": {
      headline: "Pelican Labs: 1 shipped, 2 slipping, 1 blocker, 1 silent",
      day: "2026-11-04",
      shipped: [{ title: "Search tuning", ...bruno }],
      slipping: [onboarding(1), billing(1)],
      blockers: [diskSince(2, "staging database is out of disk!")],
      silent: [silent(ana, 1)],
      kpi_status: [mrr(46_000, "at_risk")],
      notes: [],
    },
    "2026-11-04 lead lucas": {
      headline: "Lucas Melo: 1 shipped, 2 slipping, 1 blocker, 1 silent",
      day: "2026-11-04",
      shipped: [{ title: "Search tuning", ...bruno }],
      slipping: [onboarding(1), billing(1)],
      blockers: [diskSince(2, "staging database is out of disk!")],
      silent: [silent(ana, 1)],
      kpi_status: [],
      notes: [],
    },
    "2026-11-04 member bruno": {
      headline: "Bruno Costa: 1 shipped, 0 slipping, 0 blockers",
      day: "2026-11-04",
      shipped: [{ title: "Search tuning", ...bruno }],
      slipping: [],
      blockers: [],
      silent: [],
      kpi_status: [],
      notes: [],
    },
    "2026-11-05 member ana": {
      headline: "Ana Lima: 0 shipped, 1 slipping, 1 blocker",
      day: "2026-11-05",
      shipped: [],
      slipping: [onboarding(2)],
      blockers: [diskSince(3)],
      silent: [],
      kpi_status: [],
      notes: [],
    },
    "2026-11-05 org org": {
      headline: "Pelican Labs: 1 shipped, 1 slipping, 1 blocker, 1 silent",
      day: "2026-11-05",
      shipped: [{ title: "Billing migration", ...lucas }],
      slipping: [onboarding(2)],
      blockers: [diskSince(3)],
      silent: [silent(fernanda, 1)],
      kpi_status: [],
      notes: [],
    },
    "2026-11-06 org org": {
      headline: "Pelican Labs: 2 shipped, 1 slipping, 0 blockers, 1 silent",
      day: "2026-11-06",
      shipped: [
        { title: "Staging disk resized", ...ana },
        { title: "Search launch", ...bruno },
      ],
      slipping: [onboarding(3)],
      blockers: [],
      silent: [silent(lucas, 1)],
      kpi_status: [mrr(51_000, "on_track")],
      notes: [],
    },
    "2026-11-06 member fernanda": {
      headline: "Fernanda Alves: 0 shipped, 0 slipping, 0 blockers",
      day: "2026-11-06",
      shipped: [],
      slipping: [],
      blockers: [],
      silent: [],
      kpi_status: [mrr(51_000, "on_track")],
      notes: [],
    },
  };
}

/** The identities the week makes: who wrote each day, a lead report and an organization report every day. */
const EXPECTED_KEYS = [
  "2026-11-02 member ana",
  "2026-11-02 member bruno",
  "2026-11-02 member fernanda",
  "2026-11-02 member lucas",
  "2026-11-02 lead lucas",
  "2026-11-02 org org",
  "2026-11-03 member ana",
  "2026-11-03 member lucas",
  "2026-11-03 lead lucas",
  "2026-11-03 org org",
  "2026-11-04 member bruno",
  "2026-11-04 member fernanda",
  "2026-11-04 member lucas",
  "2026-11-04 lead lucas",
  "2026-11-04 org org",
  "2026-11-05 member ana",
  "2026-11-05 member lucas",
  "2026-11-05 lead lucas",
  "2026-11-05 org org",
  "2026-11-06 member ana",
  "2026-11-06 member bruno",
  "2026-11-06 member fernanda",
  "2026-11-06 lead lucas",
  "2026-11-06 org org",
].sort();

function fixtureWeek() {
  let week: Week;

  beforeAll(async () => {
    week = await setUpWeek();
    await liveWeek(week);
  });

  afterAll(async () => {
    const db = await getDb();
    if (week) await db.organization.delete({ where: { id: week.org.id } });
  });

  it("generates each working day's reports at its cutoff, compared field by field", async () => {
    const reports = await week.reports();
    const expected = expectations(week.people);
    // Before the late update, Wednesday's organization report had Bruno silent for two days.
    expect(reports.get("2026-11-04 org org")!.content).toEqual(expected.wednesdayBefore);
    expect(reports.has("2026-11-04 member bruno")).toBe(false);
    for (const [key, content] of Object.entries(expected)) {
      if (key === "wednesdayBefore" || key.startsWith("2026-11-04")) continue;
      expect(reports.get(key)?.content, key).toEqual(content);
    }
    expect([...reports.keys()].sort()).toEqual(EXPECTED_KEYS.filter((k) => k !== "2026-11-04 member bruno"));
    const db = await getDb();
    const generatedAt = await db.report.findMany({
      where: { organizationId: week.org.id, scope: "org" },
      select: { generatedAt: true },
      orderBy: { generatedAt: "asc" },
    });
    expect(generatedAt.map((r) => r.generatedAt.toISOString())).toEqual(DAYS.map((d) => `${d}T21:00:00.000Z`));
  });

  it("a late update regenerates its day in place: report.updated, no second report, later days unchanged", async () => {
    const before = await week.reports();
    const eventsBefore = (await week.outbox()).length;
    await write(week, DAYS[2], [["bruno", update({ shipped: [{ title: "Search tuning" }] })]]);
    // Friday night, within the grace: Wednesday is generated again, then Thursday and Friday are checked again.
    await passUntilDone(week, at(DAYS[4], "23:30"));
    const after = await week.reports();
    const expected = expectations(week.people);
    for (const [key, content] of Object.entries(expected)) {
      if (key === "wednesdayBefore") continue;
      expect(after.get(key)?.content, key).toEqual(content);
    }
    expect([...after.keys()].sort()).toEqual(EXPECTED_KEYS);
    expect(await week.reportCount()).toBe(EXPECTED_KEYS.length);
    // Same ids: replaced in place.
    for (const [key, { id }] of before) expect(after.get(key)?.id, key).toBe(id);
    const events = (await week.outbox()).slice(eventsBefore);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: "report.published", subject: after.get("2026-11-04 member bruno")!.id },
        { type: "report.updated", subject: after.get("2026-11-04 lead lucas")!.id },
        { type: "report.updated", subject: after.get("2026-11-04 org org")!.id },
      ]),
    );
    expect(events).toHaveLength(3);
  });

  it("a day regenerated with nothing new changes nothing and announces nothing", async () => {
    const before = await week.outbox();
    const { runCommand } = await import("@/lib/cli/commands");
    const result = await runCommand("reports.generate", { org: week.org.slug, date: DAYS[1] });
    expect(result.reports.map((r) => r.outcome)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);
    expect(await week.outbox()).toEqual(before);
  });

  it("every report of the week was announced once as published", async () => {
    const published = (await week.outbox()).filter((e) => e.type === "report.published").map((e) => e.subject);
    expect(published.sort()).toEqual([...(await week.reports()).values()].map((r) => r.id).sort());
  });
}

describe("the fixture week", fixtureWeek);

describe.runIf(process.env.DATABASE_URL && adminUrl && hasPgBouncer())("the fixture week through PgBouncer", () => {
  let direct: DbHandle;
  let pgbouncer: ThrowawayPgBouncer;
  let pooled: DbHandle;

  beforeAll(async () => {
    direct = await getDbHandle();
    pgbouncer = await startPgBouncer(adminUrl!);
    pooled = openPostgres(pgbouncer.url(new URL(process.env.DATABASE_URL!).pathname.slice(1)), 4);
    await pooled.detectPooler();
    installDbHandle(pooled);
  });

  afterAll(async () => {
    installDbHandle(direct);
    await pooled?.close();
    await pgbouncer?.stop();
  });

  it("reaches the server through the pooler", () => {
    expect(pooled.sql.named).toBe(false);
  });

  fixtureWeek();
});
