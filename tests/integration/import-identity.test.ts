import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { lockOrganizationImports } from "@/lib/data/report-identity";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";

// Imports are idempotent (issue 37): a report is identified by its id, else by its scope, target and generated_at.
// Each test imports into an organization of its own, with one webhook endpoint subscribed to report.published,
// so the outbox shows which reports were announced.

const content = (headline: string, extra: Record<string, unknown> = {}) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release" }],
  silent: [],
  slipping: [],
  blockers: [],
  ...extra,
});

interface TestOrg {
  id: string;
  slug: string;
  member: string;
}

const created: string[] = [];

// Their endpoints' URL resolves nowhere: removed with them, so no later delivery pass in this worker tries it.
afterAll(async () => {
  const db = await getDb();
  await db.organization.deleteMany({ where: { id: { in: created } } });
});

async function createOrg(): Promise<TestOrg> {
  const db = await getDb();
  const slug = `identity-${randomUUID().slice(0, 8)}`;
  const org = await db.organization.create({ data: { slug, name: "Identity" }, select: { id: true, slug: true } });
  created.push(org.id);
  const member = await db.member.create({
    data: { organizationId: org.id, name: "Mia Member", role: "member" },
    select: { id: true },
  });
  await db.webhookEndpoint.create({
    data: {
      organizationId: org.id,
      url: "https://hooks.example.com/sundown",
      events: ["report.published"],
      secretSealed: "sealed",
    },
    select: { id: true },
  });
  return { ...org, member: member.id };
}

const importInto = (org: TestOrg, reports: unknown[], replace = false) =>
  runCommand("reports.import", { org: org.slug, reports, replace });

async function refusal(work: Promise<unknown>): Promise<string[]> {
  try {
    await work;
  } catch (error) {
    return (error as Error).message.split("\n");
  }
  throw new Error("expected the import to be refused");
}

async function stored(org: TestOrg) {
  const db = await getDb();
  return db.report.findMany({
    where: { organizationId: org.id },
    select: { id: true, scope: true, scopeTargetId: true, generatedAt: true, headline: true, content: true },
    orderBy: { generatedAt: "asc" },
  });
}

/** The reports the outbox announces as published, in the order announced. */
async function announced(org: TestOrg): Promise<string[]> {
  const db = await getDb();
  const rows = await db.webhookOutbox.findMany({
    where: { organizationId: org.id, type: "report.published" },
    select: { subjectIds: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.flatMap((r) => r.subjectIds);
}

describe("a retried import", () => {
  let org: TestOrg;
  const file = () => [
    { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") },
    { scope: "member", scope_target_id: org.member, generated_at: "2026-11-20T17:00:00Z", report: content("Mia") },
  ];

  beforeAll(async () => {
    org = await createOrg();
  });

  it("adds nothing and announces nothing the second time", async () => {
    const first = await importInto(org, file());
    expect(first).toMatchObject({ added: 2, unchanged: 0, replaced: 0 });
    const ids = first.reports.map((r) => r.id);
    expect(await announced(org)).toEqual(ids);

    const second = await importInto(org, file());
    expect(second).toMatchObject({ added: 0, unchanged: 2, replaced: 0 });
    // The stored reports' ids, so a caller that lost the first answer learns them.
    expect(second.reports).toEqual(ids.map((id) => ({ id, outcome: "unchanged" })));
    expect((await stored(org)).map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(await announced(org)).toEqual(ids);
  });

  it("matches whatever the offset and key order it is written with, as the same instant and content", async () => {
    const [monday] = file();
    const rewritten = {
      report: {
        blockers: [],
        slipping: [],
        silent: [],
        shipped: [{ title: "Release" }],
        kpi_status: [],
        headline: "Monday",
      },
      generated_at: "2026-11-20T19:00:00.000+01:00",
      scope: "org",
    };
    expect(monday!.generated_at).not.toBe(rewritten.generated_at);
    await expect(importInto(org, [rewritten])).resolves.toMatchObject({ added: 0, unchanged: 1 });
  });
});

describe("a report that differs from its stored self", () => {
  let org: TestOrg;
  let storedId: string;

  beforeAll(async () => {
    org = await createOrg();
    const result = await importInto(org, [
      { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") },
    ]);
    storedId = result.reports[0]!.id;
  });

  it("is refused, naming its place and the stored report, and nothing of the file is written", async () => {
    const before = await stored(org);
    const lines = await refusal(
      importInto(org, [
        { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("Tuesday") },
        { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday, corrected") },
      ]),
    );
    expect(lines).toEqual([
      "The import file conflicts with stored reports (1 problem); nothing was imported.",
      `  reports[1]: differs from stored report ${storedId}, which has the same scope, scope_target_id and generated_at`,
      "To update the stored reports that differ, run the import again with --replace.",
    ]);
    expect(await stored(org)).toEqual(before);
  });

  it("is replaced once with --replace: same id, new content, announced by no report.published", async () => {
    const announcedBefore = await announced(org);
    const corrected = [
      { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday, corrected") },
      { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("Tuesday") },
    ];
    const result = await importInto(org, corrected, true);
    expect(result).toMatchObject({ added: 1, unchanged: 0, replaced: 1 });
    expect(result.reports[0]).toEqual({ id: storedId, outcome: "replaced" });
    const rows = await stored(org);
    expect(rows.map((r) => [r.id, r.headline])).toEqual([
      [storedId, "Monday, corrected"],
      [result.reports[1]!.id, "Tuesday"],
    ]);
    expect(rows[0]!.content).toEqual(content("Monday, corrected"));
    expect(await announced(org)).toEqual([...announcedBefore, result.reports[1]!.id]);

    // Replaced once: the same file again, with --replace still, changes nothing.
    await expect(importInto(org, corrected, true)).resolves.toMatchObject({ added: 0, unchanged: 2, replaced: 0 });
  });
});

describe("a report with an id", () => {
  let org: TestOrg;
  const id = randomUUID();

  beforeAll(async () => {
    org = await createOrg();
    await importInto(org, [{ id, scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") }]);
  });

  it("is identified by it: the same report again is unchanged, whatever the case of its id", async () => {
    const again = [
      { id: id.toUpperCase(), scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") },
    ];
    await expect(importInto(org, again)).resolves.toEqual(
      expect.objectContaining({ added: 0, unchanged: 1, reports: [{ id, outcome: "unchanged" }] }),
    );
  });

  it("with other content is refused at its id; with --replace it moves, keeping its id", async () => {
    const moved = [{ id, scope: "org", generated_at: "2026-11-20T19:30:00Z", report: content("Monday, later") }];
    expect(await refusal(importInto(org, moved))).toEqual([
      "The import file conflicts with stored reports (1 problem); nothing was imported.",
      `  reports[0].id: differs from stored report ${id}, which has this id`,
      "To update the stored reports that differ, run the import again with --replace.",
    ]);
    await expect(importInto(org, moved, true)).resolves.toMatchObject({ replaced: 1 });
    const [row] = await stored(org);
    expect(row).toMatchObject({ id, headline: "Monday, later", generatedAt: new Date("2026-11-20T19:30:00Z") });
  });

  it("cannot take the scope, target and generated_at of another stored report, even with --replace", async () => {
    const other = (
      await importInto(org, [{ scope: "org", generated_at: "2026-11-22T18:00:00Z", report: content("W") }])
    ).reports[0]!.id;
    const newId = randomUUID();
    for (const [label, report] of [
      ["a new id", { id: newId, scope: "org", generated_at: "2026-11-22T18:00:00Z", report: content("W") }],
      ["a stored id", { id, scope: "org", generated_at: "2026-11-22T18:00:00Z", report: content("W") }],
    ] as const) {
      expect(await refusal(importInto(org, [report], true)), label).toEqual([
        "The import file conflicts with stored reports (1 problem); nothing was imported.",
        `  reports[0]: stored report ${other} has the same scope, scope_target_id and generated_at, under another id: send it with that id, or without one`,
      ]);
    }
  });

  it("refuses a batch that names one stored report twice (by its id and by its scope, target and time)", async () => {
    const lines = await refusal(
      importInto(
        org,
        [
          { scope: "org", generated_at: "2026-11-20T19:30:00Z", report: content("Monday, later") },
          { id, scope: "org", generated_at: "2026-11-20T19:45:00Z", report: content("Monday, later still") },
        ],
        true,
      ),
    );
    expect(lines).toEqual([
      "The import file conflicts with stored reports (1 problem); nothing was imported.",
      `  reports[1]: is stored report ${id}, as reports[0] is: send each report once`,
    ]);
  });
});

describe("one file", () => {
  it("cannot hold two reports with the same scope, target and generated_at (checked before the database)", async () => {
    const org = await createOrg();
    const lines = await refusal(
      importInto(org, [
        { scope: "member", scope_target_id: org.member, generated_at: "2026-11-20T18:00:00Z", report: content("a") },
        { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("org") },
        {
          scope: "member",
          scope_target_id: org.member.toUpperCase(),
          generated_at: "2026-11-20T19:00:00+01:00",
          report: content("b"),
        },
      ]),
    );
    expect(lines).toEqual([
      "The import file is invalid (1 problem); nothing was imported.",
      "  reports[2]: same scope, scope_target_id and generated_at as reports[0]: one report, sent twice",
    ]);
    expect(await stored(org)).toEqual([]);
  });
});

describe("concurrent imports of one file", () => {
  it("store it once: one import adds every report, the others find them unchanged", async () => {
    const org = await createOrg();
    const file = Array.from({ length: 50 }, (_, i) => ({
      scope: "org",
      generated_at: new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString(),
      report: content(`hour ${i}`),
    }));
    const results = await Promise.all([importInto(org, file), importInto(org, file), importInto(org, file)]);
    expect(results.map((r) => r.added).sort()).toEqual([0, 0, 50]);
    expect(results.map((r) => r.unchanged).sort()).toEqual([0, 50, 50]);
    const ids = results.find((r) => r.added === 50)!.reports.map((r) => r.id);
    for (const result of results) expect(result.reports.map((r) => r.id)).toEqual(ids);
    expect(await stored(org)).toHaveLength(50);
    expect((await announced(org)).sort()).toEqual([...ids].sort());
  });
});

describe("an import while another holds the organization's turn", () => {
  it("waits for it, longer than one statement may take (DATABASE_TIMEOUT_MS)", async () => {
    const org = await createOrg();
    const db = await getDb();
    const holdMs = getEnv().DATABASE_TIMEOUT_MS + 1_000;
    let releasedAt = 0;
    const holder = db.$transaction(
      async (tx) => {
        await lockOrganizationImports(tx, org.id);
        await new Promise((resolve) => setTimeout(resolve, holdMs));
        releasedAt = Date.now();
      },
      { timeout: holdMs * 3 },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const file = [{ scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") }];
    const imported = importInto(org, file).then((result) => ({ result, doneAt: Date.now() }));
    const [, { result, doneAt }] = await Promise.all([holder, imported]);
    expect(result).toMatchObject({ added: 1 });
    expect(doneAt).toBeGreaterThanOrEqual(releasedAt);
  }, 60_000);
});

describe("duplicates stored before imports were idempotent", () => {
  it("are matched through the oldest of them; a deletion makes the next one the match", async () => {
    const org = await createOrg();
    const db = await getDb();
    const [first, second] = [randomUUID(), randomUUID()];
    const row = (id: string, duplicateOf: string | null, createdAt: string, headline: string) => ({
      id,
      organizationId: org.id,
      scope: "org" as const,
      generatedAt: new Date("2026-11-20T18:00:00Z"),
      headline,
      content: content(headline),
      duplicateOf,
      createdAt: new Date(createdAt),
    });
    // As the migration leaves them: the later one marked with the one it repeats.
    await db.report.createMany({
      data: [row(first, null, "2026-11-20T18:05:00Z", "Monday"), row(second, first, "2026-11-20T18:09:00Z", "Monday")],
    });
    const monday = [{ scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") }];
    await expect(importInto(org, monday)).resolves.toMatchObject({ unchanged: 1, reports: [{ id: first }] });

    const deleted = await runCommand("reports.delete", { reportId: first });
    expect(deleted.report).toMatchObject({ id: first, scope: "org", generated_at: "2026-11-20T18:00:00.000Z" });
    await expect(importInto(org, monday)).resolves.toMatchObject({ unchanged: 1, reports: [{ id: second }] });
    expect(await db.report.findUniqueOrThrow({ where: { id: second }, select: { duplicateOf: true } })).toEqual({
      duplicateOf: null,
    });
  });

  it("are listed for the operator, with whether their content is the same", async () => {
    const org = await createOrg();
    const db = await getDb();
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await db.report.createMany({
      data: ids.map((id, i) => ({
        id,
        organizationId: org.id,
        scope: "org" as const,
        generatedAt: new Date("2026-11-20T18:00:00Z"),
        headline: i === 2 ? "Monday (v2)" : "Monday",
        content: content(i === 2 ? "Monday (v2)" : "Monday"),
        duplicateOf: i === 0 ? null : ids[0],
        createdAt: new Date(Date.UTC(2026, 10, 20, 18, i)),
      })),
    });
    const listing = await runCommand("reports.duplicates", { org: org.slug });
    expect(
      "duplicates" in listing && listing.duplicates.map((d) => [d.id, d.duplicate_of, d.same_content]).sort(),
    ).toEqual(
      [
        [ids[1], ids[0], true],
        [ids[2], ids[0], false],
      ].sort(),
    );
    const overview = await runCommand("reports.duplicates", {});
    expect("organizations" in overview && overview.organizations.find((o) => o.slug === org.slug)).toMatchObject({
      duplicates: 2,
    });
    // Replacing a duplicate by its id would leave two identified reports: refused, with what to do instead.
    expect(
      await refusal(
        importInto(
          org,
          [{ id: ids[2], scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("x") }],
          true,
        ),
      ),
    ).toEqual([
      "The import file conflicts with stored reports (1 problem); nothing was imported.",
      `  reports[0].id: stored report ${ids[2]} repeats report ${ids[0]} (both stored before imports were idempotent): delete one of them before replacing it`,
    ]);
  });
});
