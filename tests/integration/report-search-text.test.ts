import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { createApiKey } from "@/lib/data/api-keys";
import { NO_KNOWN_CONTACTS } from "@/lib/data/known-contact-matcher";
import { fillMissingSearchText } from "@/lib/data/report-search-backfill";
import { reportSearchText, SEARCH_TEXT_VERSION } from "@/lib/data/report-search-text";
import { refreshReportStatistics } from "@/lib/data/report-statistics";
import { getDb } from "@/lib/db";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import { createHistoryOrg } from "../helpers/history-org";

// `q` searches what the API serves. Reports written before search existed (or by a tool that wrote the table
// directly) have no search text yet: they match no search until start-up fills it in. Reports written under
// older rules of contact-detail removal have text that may hold what a response no longer shows: start-up
// writes it again.

const content = {
  headline: "Launch review",
  kpi_status: [],
  shipped: [{ title: "Shipped the zeppelin dashboard", email: "owner@example.com" }],
  silent: [],
  slipping: [{ item: "ask bob@example.com about the zeppelin", owner: "Bob" }],
  blockers: [],
};

describe("the search text of a report", () => {
  it("is its served text: contact details gone, words kept", () => {
    const text = reportSearchText(content, NO_KNOWN_CONTACTS);
    expect(text).toContain("zeppelin dashboard");
    expect(text).not.toContain("example.com");
    expect(text).not.toContain("owner@");
  });

  it("is filled in for reports stored without it, which until then match no search", async () => {
    const org = await createHistoryOrg();
    const db = await getDb();
    const stored = await db.report.create({
      data: {
        organizationId: org.organization.id,
        scope: "org",
        generatedAt: new Date(),
        headline: content.headline,
        content,
      },
      select: { id: true },
    });
    const search = () => call(listReports, "/api/v1/reports?q=zeppelin", { headers: bearer(org.key) });
    expect((await search()).body.count).toBe(0);

    expect(await fillMissingSearchText()).toBeGreaterThanOrEqual(1);
    const found = await search();
    expect(found.body.reports.map((r: { id: string }) => r.id)).toEqual([stored.id]);
    const probe = await call(listReports, `/api/v1/reports?q=${encodeURIComponent("bob@example.com")}`, {
      headers: bearer(org.key),
    });
    expect(probe.body.count).toBe(0);
    expect(await fillMissingSearchText()).toBe(0);
  });
});

describe("the search text of a report stored under older rules", () => {
  it("is written again at start-up: a member's handle and a phone number stop finding it, its words still do", async () => {
    const db = await getDb();
    const id = randomUUID();
    const organization = await db.organization.create({
      data: { slug: `older-rules-${id.slice(0, 8)}`, name: "Older Rules" },
      select: { id: true },
    });
    try {
      await db.member.create({
        data: { organizationId: organization.id, name: "Maya Chen", role: "founder", chatHandle: "@mchen" },
        select: { id: true },
      });
      const { key } = await createApiKey({
        organizationId: organization.id,
        name: "older-rules",
        scopes: ["reports:read"],
        actor: { label: "test" },
      });
      const stored = {
        headline: "Airship review",
        kpi_status: [],
        shipped: [{ title: "Airship hangar", notes: "ask @mchen or call 555.010.4477" }],
        silent: [],
        slipping: [],
        blockers: [],
      };
      // As the first rules wrote it (no version): the served strings, the handle and the number still in them.
      await db.$executeRaw`
        INSERT INTO reports (id, organization_id, scope, generated_at, headline, content, search_text)
        VALUES (${id}::uuid, ${organization.id}::uuid, 'org', now(), ${stored.headline}, ${JSON.stringify(stored)}::jsonb,
                ${"Airship review\nAirship hangar\nask @mchen or call 555.010.4477"})`;
      const search = async (q: string) =>
        (
          await call(listReports, `/api/v1/reports?q=${encodeURIComponent(q)}`, { headers: bearer(key) })
        ).body.reports.map((r: { id: string }) => r.id);
      expect(await search("mchen")).toEqual([id]);

      expect(await fillMissingSearchText()).toBeGreaterThanOrEqual(1);
      expect(await search("mchen")).toEqual([]);
      expect(await search("555.010.4477")).toEqual([]);
      expect(await search("airship hangar")).toEqual([id]);
      const [row] = await db.$queryRaw<{ version: number }[]>`
        SELECT search_text_version AS version FROM reports WHERE id = ${id}::uuid`;
      expect(row!.version).toBe(SEARCH_TEXT_VERSION);
    } finally {
      await db.organization.delete({ where: { id: organization.id } });
    }
  });
});

describe("the planner's statistics on reports", () => {
  it("are gathered when missing or outgrown, and not again while fresh", async () => {
    const db = await getDb();
    await refreshReportStatistics();
    expect(await refreshReportStatistics()).toBe(false);
    const [row] = await db.$queryRaw<
      { reltuples: number }[]
    >`SELECT reltuples FROM pg_class WHERE oid = 'reports'::regclass`;
    expect(Number(row!.reltuples)).toBeGreaterThanOrEqual(0);
  });
});
