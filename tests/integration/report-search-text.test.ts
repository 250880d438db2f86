import { describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { fillMissingSearchText } from "@/lib/data/report-search-backfill";
import { reportSearchText } from "@/lib/data/report-search-text";
import { refreshReportStatistics } from "@/lib/data/report-statistics";
import { getDb } from "@/lib/db";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import { createHistoryOrg } from "../helpers/history-org";

// `q` searches what the API serves. Reports written before search existed (or by a tool that wrote the table
// directly) have no search text yet: they match no search until start-up fills it in.

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
    const text = reportSearchText(content);
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
