import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { EXPANDED_PAGE_MAX_BYTES } from "@/lib/data/reports";
import { importReports } from "@/lib/data/import-reports";
import { getDb } from "@/lib/db";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";
import { connectHistoryMcp } from "../helpers/history-mcp";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";

// Issue 39, item 3: expand=report puts each report's full, masked content in the page; the plain list keeps its
// shape; a page of whole reports too large to serve whole ends early, says so, and pages further.

let org: HistoryOrg;
let client: Client;
const small: string[] = [];
const large: string[] = [];

/** About 30 KB of shipped items: seven of them pass the page's bound. */
const BULKY = Array.from({ length: 120 }, (_, i) => ({ title: `Item ${i} ${"x".repeat(240)}`, owner: "Dev Patel" }));

beforeAll(async () => {
  org = await createHistoryOrg();
  await (
    await getDb()
  ).member.create({
    data: { organizationId: org.organization.id, name: "Mila Jones", role: "member", email: "mila@example.com" },
  });
  const report = (at: string, shipped: Record<string, unknown>[]) => ({
    id: randomUUID(),
    scope: "org" as const,
    scope_target_id: null,
    generated_at: at,
    report: {
      headline: `Report of ${at}, ask mila@example.com`,
      kpi_status: [],
      shipped,
      silent: [],
      slipping: [],
      blockers: [{ description: "Waiting on mila@example.com", owner: "Mila Jones" }],
    },
  });
  const week = Array.from({ length: 7 }, (_, i) => report(`2026-10-0${i + 1}T18:00:00.000Z`, [{ title: "small" }]));
  const bulky = Array.from({ length: 14 }, (_, i) => report(`2026-09-${String(i + 10)}T18:00:00.000Z`, BULKY));
  small.push(...week.map((r) => r.id));
  large.push(...bulky.map((r) => r.id));
  await importReports(org.organization, [...week, ...bulky], { actor: { label: "test" } });
  client = await connectHistoryMcp(org);
});

afterAll(async () => {
  await client?.close();
  await org?.remove();
});

async function list(query: string) {
  const res = await call(listReports, `/api/v1/reports?${query}`, { headers: bearer(org.key) });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body as {
    reports: { id: string; report?: unknown }[];
    count: number;
    next_cursor: string | null;
    truncated?: true;
  };
}

describe("expand=report", () => {
  it("puts each report's full content in the page, masked exactly as get_report serves it", async () => {
    const page = await list("since=2026-10-01&until=2026-10-07&expand=report");
    expect(page.reports.map((r) => r.id)).toEqual([...small].reverse());
    for (const summary of page.reports) {
      const one = await call(
        getReport,
        `/api/v1/reports/${summary.id}`,
        { headers: bearer(org.key) },
        { id: summary.id },
      );
      expect(summary.report).toEqual(one.body.report);
    }
    expect(JSON.stringify(page)).not.toContain("mila@example.com");
    expect(page).not.toHaveProperty("truncated");
  });

  it("leaves the plain list as it was: no report, no truncated", async () => {
    const page = await list("since=2026-10-01&until=2026-10-07");
    expect(Object.keys(page).sort()).toEqual(["count", "next_cursor", "reports"]);
    expect(Object.keys(page.reports[0]!).sort()).toEqual([
      "generated_at",
      "headline",
      "id",
      "scope",
      "scope_target_id",
    ]);
  });

  it("ends a page too large to serve whole early, says so, and the cursor continues with every report once", async () => {
    const query = "since=2026-09-01&until=2026-09-30&expand=report&limit=14";
    const seen: string[] = [];
    let page = await list(query);
    expect(page.truncated).toBe(true);
    expect(page.count).toBeLessThan(14);
    expect(Buffer.byteLength(JSON.stringify(page.reports))).toBeLessThanOrEqual(EXPANDED_PAGE_MAX_BYTES + 1000);
    seen.push(...page.reports.map((r) => r.id));
    while (page.next_cursor) {
      page = await list(`${query}&cursor=${page.next_cursor}`);
      seen.push(...page.reports.map((r) => r.id));
    }
    expect(seen).toEqual([...large].reverse());
  });

  it("refuses any other value", async () => {
    const res = await call(listReports, "/api/v1/reports?expand=reports", { headers: bearer(org.key) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_parameter", message: "expand must be one of report." });
  });

  it("is list_reports' expand too, with the same answer", async () => {
    const result = await client.callTool({
      name: "list_reports",
      arguments: { since: "2026-10-01", until: "2026-10-07", expand: "report" },
    });
    expect(result.structuredContent).toEqual(await list("since=2026-10-01&until=2026-10-07&expand=report"));
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain("Blockers (1):");
  });
});
