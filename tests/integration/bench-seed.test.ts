import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBenchOrganization, type BenchFixture } from "@/bench/seed";
import type { KnownContacts } from "@/lib/data/known-contact-matcher";
import { loadKnownContacts } from "@/lib/data/known-contacts";
import { reportSearchText } from "@/lib/data/report-search-text";
import { getDb } from "@/lib/db";

// The benchmark's organization, seeded small (600 reports over 6 days): its history must be what the bench's
// history points measure, and searchable exactly as reports the application writes.

let fixture: BenchFixture;
let reports: {
  id: string;
  scope: string;
  scopeTargetId: string | null;
  generatedAt: Date;
  headline: string | null;
  content: unknown;
  searchText: string | null;
}[];
let members: { id: string; role: string }[];
let contacts: KnownContacts;

beforeAll(async () => {
  fixture = await seedBenchOrganization({ members: 40, reports: 600, days: 6, keys: 1 });
  const db = await getDb();
  reports = await db.report.findMany({
    where: { organizationId: fixture.organizationId, id: { not: fixture.longStringReportId } },
    orderBy: [{ generatedAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      scope: true,
      scopeTargetId: true,
      generatedAt: true,
      headline: true,
      content: true,
      searchText: true,
    },
  });
  members = await db.member.findMany({
    where: { organizationId: fixture.organizationId },
    select: { id: true, role: true },
  });
  contacts = await loadKnownContacts(db, fixture.organizationId);
});

afterAll(async () => {
  const db = await getDb();
  await db.organization.delete({ where: { id: fixture.organizationId }, select: { id: true } });
});

const lines = (text: string) => text.split("\n").sort();

describe("the benchmark's report history", () => {
  it("has the asked number of reports, a day's worth on each day up to the newest", () => {
    expect(reports).toHaveLength(600);
    const days = new Map<string, number>();
    for (const r of reports) {
      const day = r.generatedAt.toISOString().slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    expect([...days.values()]).toEqual([100, 100, 100, 100, 100, 100]);
    expect([...days.keys()][0]).toBe(fixture.newestDay);
    expect(fixture.reportIds).toEqual(reports.slice(0, 16).map((r) => r.id));
  });

  it("covers every scope, with lead and member reports about the organization's leads and members", () => {
    const roleOf = new Map(members.map((m) => [m.id, m.role]));
    const targets = (scope: string) => reports.filter((r) => r.scope === scope).map((r) => r.scopeTargetId);
    expect(targets("org").length).toBe(60);
    expect(new Set(targets("org"))).toEqual(new Set([null]));
    expect(new Set(targets("lead").map((id) => roleOf.get(id!)))).toEqual(new Set(["lead"]));
    expect(new Set(targets("member").map((id) => roleOf.get(id!)))).toEqual(new Set(["member"]));
    expect(new Set(targets("member")).size).toBe(fixture.memberIds.length);
    expect(fixture.memberIds.every((id) => roleOf.get(id) === "member")).toBe(true);
  });

  it("stores each report's search text as the application writes it: the served strings, no contact details", () => {
    for (const r of reports) {
      // The stored JSON's key order is PostgreSQL's, so the lines are compared as a set of lines.
      expect(lines(r.searchText!)).toEqual(lines(reportSearchText(r.content, contacts)));
      expect(r.searchText).not.toMatch(/@bench\.example|UQUIET/);
      expect(r.headline).toBe((r.content as { headline: string }).headline);
    }
    expect(JSON.stringify(reports[0]!.content)).toContain("quiet@bench.example");
  });

  it("has a common word in most reports and rare code names in few", async () => {
    expect(fixture.commonWord.share).toBeGreaterThan(0.5);
    const db = await getDb();
    const codeName = /\((\w+)\)/.exec(reports[0]!.searchText!)![1]!;
    const [{ matching }] = await db.$queryRawUnsafe<{ matching: number }[]>(
      `SELECT count(*)::int AS matching FROM reports
       WHERE organization_id = $1::uuid AND search_vector @@ websearch_to_tsquery('english', $2)`,
      fixture.organizationId,
      codeName,
    );
    expect(matching).toBeGreaterThanOrEqual(1);
    expect(matching).toBeLessThan(6);
  });
});
