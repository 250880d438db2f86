import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { createHistoryOrg, expectedOrder, historyReport, type HistoryOrg } from "../helpers/history-org";
import { bearer } from "../helpers/keys";
import { connectHistoryMcp, withHistoryMcp } from "../helpers/history-mcp";
import { call } from "../helpers/request";

// The sundown://reports/day/{date} resource template: one day's summaries (a UTC organization's here; organization-days.test.ts has another zone), every page read, up to a bound.

let org: HistoryOrg;
let client: Client;

const minute = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 60_000).toISOString();

beforeAll(async () => {
  org = await createHistoryOrg();
  await org.add([
    // The edges of 2026-11-05, and a tie that the id breaks.
    historyReport({ generated_at: "2026-11-04T23:59:59.999Z" }),
    historyReport({ generated_at: "2026-11-05T00:00:00.000Z" }),
    historyReport({ generated_at: "2026-11-05T12:00:00.000Z", headline: "Twin A" }),
    // Its twin at the same instant is another person's report: one scope, target and time is one report.
    historyReport({
      generated_at: "2026-11-05T12:00:00.000Z",
      headline: "Twin B",
      scope: "member",
      scope_target_id: org.members[2]!.id,
    }),
    historyReport({ generated_at: "2026-11-05T23:59:59.999Z", scope: "lead", scope_target_id: org.members[0]!.id }),
    historyReport({ generated_at: "2026-11-06T00:00:00.000Z" }),
    // More than one page on the 6th, more than the bound on the 7th.
    ...Array.from({ length: 60 }, (_, i) => historyReport({ generated_at: minute("2026-11-06", i + 1) })),
    ...Array.from({ length: 255 }, (_, i) => historyReport({ generated_at: minute("2026-11-07", i) })),
  ]);
  client = await connectHistoryMcp(org);
});

afterAll(async () => {
  await client?.close();
});

async function readDay(date: string, on: Client = client) {
  const { contents } = await on.readResource({ uri: `sundown://reports/day/${date}` });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri: `sundown://reports/day/${date}`, mimeType: "application/json" });
  return JSON.parse((contents[0] as { text: string }).text);
}

const onDay = (date: string) => (r: { generated_at: string }) => r.generated_at.startsWith(date);

describe("sundown://reports/day/{date}", () => {
  it("is a listed template", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(
      expect.objectContaining({ uriTemplate: "sundown://reports/day/{date}", mimeType: "application/json" }),
    );
  });

  it("holds exactly the day's summaries, edges included, as GET /api/v1/reports?since=…&until=… serves them", async () => {
    const day = await readDay("2026-11-05");
    const rest = await call(listReports, "/api/v1/reports?since=2026-11-05&until=2026-11-05&limit=50", {
      headers: bearer(org.key),
    });
    expect(day).toEqual({ date: "2026-11-05", ...rest.body });
    expect(day.reports.map((r: { id: string }) => r.id)).toEqual(expectedOrder(org.reports, onDay("2026-11-05")));
    expect(day.count).toBe(4);
    expect(day.next_cursor).toBeNull();
  });

  it("reads every page of a busy day", async () => {
    const day = await readDay("2026-11-06");
    expect(day.count).toBe(61);
    expect(day.reports.map((r: { id: string }) => r.id)).toEqual(expectedOrder(org.reports, onDay("2026-11-06")));
    expect(day.next_cursor).toBeNull();
  });

  it("stops at 250 with a next_cursor that list_reports continues for the same day", async () => {
    const day = await readDay("2026-11-07");
    const expected = expectedOrder(org.reports, onDay("2026-11-07"));
    expect(day.count).toBe(250);
    expect(day.reports.map((r: { id: string }) => r.id)).toEqual(expected.slice(0, 250));
    const rest = await client.callTool({
      name: "list_reports",
      arguments: { since: "2026-11-07", until: "2026-11-07", limit: 50, cursor: day.next_cursor },
    });
    const content = rest.structuredContent as { reports: { id: string }[]; next_cursor: string | null };
    expect(content.reports.map((r) => r.id)).toEqual(expected.slice(250));
    expect(content.next_cursor).toBeNull();
  });

  it("an empty day is an empty list", async () => {
    expect(await readDay("2026-10-01")).toEqual({ date: "2026-10-01", reports: [], count: 0, next_cursor: null });
  });

  it.each(["2026-02-30", "2026-11-5", "20261105", "today"])("refuses %s as invalid params", async (date) => {
    const error = await client.readResource({ uri: `sundown://reports/day/${date}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toBe(
      "MCP error -32602: invalid_parameter: date must be a calendar date such as 2026-11-20 (a whole day in the organization's time zone).",
    );
  });

  it("lists and completes the days of the newest reports, named by date alone", async () => {
    const { resources } = await client.listResources();
    const days = resources.filter((r) => r.uri.startsWith("sundown://reports/day/"));
    // The 50 newest reports all fall on the 7th.
    expect(days).toEqual([
      expect.objectContaining({
        uri: "sundown://reports/day/2026-11-07",
        name: "reports-2026-11-07",
        title: "Reports of 2026-11-07 (UTC)",
        description: "Summaries of the reports generated on 2026-11-07 (UTC), newest first.",
        mimeType: "application/json",
      }),
    ]);
    const complete = async (value: string) =>
      (
        await client.complete({
          ref: { type: "ref/resource", uri: "sundown://reports/day/{date}" },
          argument: { name: "date", value },
        })
      ).completion.values;
    expect(await complete("2026-11")).toEqual(["2026-11-07"]);
    expect(await complete("2025")).toEqual([]);
  });

  it("without reports:read, lists no days and reading names the scope", async () => {
    await withHistoryMcp(org, ["team:read"], async (teamOnly) => {
      const { resources } = await teamOnly.listResources();
      expect(resources.filter((r) => r.uri.startsWith("sundown://reports/day/"))).toEqual([]);
      const error = await teamOnly.readResource({ uri: "sundown://reports/day/2026-11-05" }).catch((e: unknown) => e);
      expect((error as McpError).data).toMatchObject({ error: "insufficient_scope", required_scope: "reports:read" });
    });
  });
});
