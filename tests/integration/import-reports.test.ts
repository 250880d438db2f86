import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listReportsRoute } from "@/app/api/v1/reports/route";
import { runCommand } from "@/lib/cli/commands";
import { createApiKey } from "@/lib/data/api-keys";
import { getDb } from "@/lib/db";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";

// Imports go into an organization of this file's own, so no other test sees these reports.

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release", email: "x@example.com" }],
  silent: [],
  slipping: [],
  blockers: [],
});

let org: { id: string; slug: string };
let lead: string;
let otherOrgMember: string;

async function reportCount(): Promise<number> {
  const db = await getDb();
  return db.report.count({ where: { organizationId: org.id } });
}

async function importFailure(reports: unknown[]): Promise<string> {
  try {
    await runCommand("reports.import", { org: org.slug, reports });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the import to fail");
}

beforeAll(async () => {
  const db = await getDb();
  const slug = `import-${randomUUID().slice(0, 8)}`;
  org = await db.organization.create({ data: { slug, name: "Import Test" }, select: { id: true, slug: true } });
  lead = (
    await db.member.create({ data: { organizationId: org.id, name: "Lena Lead", role: "lead" }, select: { id: true } })
  ).id;
  const globex = await db.organization.findUniqueOrThrow({ where: { slug: "globex" }, select: { id: true } });
  otherOrgMember = (await db.member.findFirstOrThrow({ where: { organizationId: globex.id }, select: { id: true } }))
    .id;
});

describe("reports import", () => {
  it("writes every report of a valid file, readable through the API most recent first", async () => {
    const id = randomUUID();
    const before = await reportCount();
    const result = await runCommand("reports.import", {
      org: org.slug,
      reports: [
        { id, scope: "org", generated_at: "2026-11-20T18:00:00+01:00", report: content("older") },
        { scope: "lead", scope_target_id: lead, generated_at: "2026-11-21T17:00:00Z", report: content("newer") },
      ],
    });
    expect(result).toEqual({
      organization: { id: org.id, slug: org.slug, name: "Import Test" },
      added: 2,
      unchanged: 0,
      replaced: 0,
      reports: [
        { id, outcome: "added" },
        { id: expect.stringMatching(/^[0-9a-f-]{36}$/), outcome: "added" },
      ],
    });
    expect(await reportCount()).toBe(before + 2);

    const key = await createApiKey({
      organizationId: org.id,
      name: "import-test",
      scopes: ["reports:read"],
      actor: { label: "test" },
    });
    const res = await call(listReportsRoute, "/api/v1/reports", { headers: bearer(key.key) });
    expect(res.status).toBe(200);
    const imported = res.body.reports.filter((r: { headline: string }) => ["older", "newer"].includes(r.headline));
    expect(imported).toEqual([
      {
        id: expect.any(String),
        scope: "lead",
        scope_target_id: lead,
        generated_at: "2026-11-21T17:00:00.000Z",
        headline: "newer",
      },
      { id, scope: "org", scope_target_id: null, generated_at: "2026-11-20T17:00:00.000Z", headline: "older" },
    ]);
  });

  it("writes nothing when one report names a member of another organization", async () => {
    const before = await reportCount();
    const reports = [
      ...Array.from({ length: 5 }, (_, i) => ({
        scope: "org",
        generated_at: `2026-11-21T18:0${i}:00Z`,
        report: content(`ok ${i}`),
      })),
      {
        scope: "member",
        scope_target_id: otherOrgMember,
        generated_at: "2026-11-21T18:00:00Z",
        report: content("bad"),
      },
    ];
    expect(await importFailure(reports)).toBe(
      `The import file is invalid (1 problem); nothing was imported.\n  reports[5].scope_target_id: no member with this id in organization ${org.slug}`,
    );
    expect(await reportCount()).toBe(before);
  });

  it("writes nothing when a report id is taken by another organization's report", async () => {
    const db = await getDb();
    const taken = (
      await db.report.findFirstOrThrow({ where: { organization: { slug: "acme" } }, select: { id: true } })
    ).id;
    const before = await reportCount();
    const message = await importFailure([
      { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("fresh") },
      { id: taken, scope: "org", generated_at: "2026-11-21T18:01:00Z", report: content("clash") },
    ]);
    expect(message).toBe(
      "The import file conflicts with stored reports (1 problem); nothing was imported.\n  reports[1].id: this id is taken by a report of another organization; choose another id",
    );
    expect(await reportCount()).toBe(before);
  });

  it("writes nothing when the file fails validation, and reports every path", async () => {
    const before = await reportCount();
    const message = await importFailure([
      { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("fine") },
      { scope: "org", generated_at: "yesterday", report: { ...content("bad"), shipped: "none" } },
    ]);
    expect(message.split("\n")).toEqual([
      "The import file is invalid (2 problems); nothing was imported.",
      "  reports[1].generated_at: expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T18:30:00Z",
      "  reports[1].report.shipped: expected array, received string",
    ]);
    expect(await reportCount()).toBe(before);
  });

  it("writes nothing for content the database or the API could not take, and lists each problem with its path", async () => {
    const before = await reportCount();
    let deep: unknown = "bottom";
    for (let i = 0; i < 5_000; i++) deep = { d: deep };
    const message = await importFailure([
      { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("fine") },
      { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: { ...content("deep"), notes: deep } },
      {
        scope: "org",
        generated_at: "2026-11-21T18:00:00Z",
        report: { ...content("nul\u0000"), shipped: [{ "who\u0000": "x" }] },
      },
      { scope: "org", generated_at: "0000-01-01T00:00:00Z", report: { ...content("lone \uD800 surrogate") } },
      {
        scope: "member",
        scope_target_id: otherOrgMember,
        generated_at: "2026-11-21T18:00:00Z",
        report: content("stranger"),
      },
    ]);
    expect(message.split("\n")).toEqual([
      "The import file is invalid (5 problems); nothing was imported.",
      `  reports[1].report.notes${".d".repeat(31)}: nested more than 32 levels deep (objects and arrays, counting the report itself)`,
      "  reports[2].report.headline: contains U+0000 (a NUL character), which the database cannot store",
      '  reports[2].report.shipped[0]: the key "who\\u0000": contains U+0000 (a NUL character), which the database cannot store',
      "  reports[3].generated_at: must lie between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC)",
      "  reports[3].report.headline: contains a lone UTF-16 surrogate (\\uD800–\\uDFFF without its pair), which is not valid Unicode text",
    ]);
    expect(await reportCount()).toBe(before);
  });

  it("refuses an unknown organization", async () => {
    await expect(
      runCommand("reports.import", {
        org: "no-such-org",
        reports: [{ scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("x") }],
      }),
    ).rejects.toThrow('No organization "no-such-org". Run `sundown orgs list` to see them.');
  });

  it("a file larger than one insert statement goes in as one transaction", async () => {
    const before = await reportCount();
    const reports = Array.from({ length: 1_200 }, (_, i) => ({
      scope: "org",
      generated_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      report: content(`bulk ${i}`),
    }));
    await expect(runCommand("reports.import", { org: org.slug, reports })).resolves.toMatchObject({
      added: 1_200,
      unchanged: 0,
      replaced: 0,
    });
    expect(await reportCount()).toBe(before + 1_200);
  });
});
