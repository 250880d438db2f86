import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { setOrganizationTimeZone } from "@/lib/data/organizations";
import { calendarDayIn } from "@/lib/schemas/time-zone";
import { createHistoryOrg, historyReport, type HistoryOrg } from "../helpers/history-org";
import { connectHistoryMcp } from "../helpers/history-mcp";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";

// Issue 37, item 4: an organization's days are days in its time zone. A US-West team's 18:00 report (01:00Z the next
// day in summer, 02:00Z in winter) is found under the day it was written, on REST, the day resource and the prompt;
// instants stay UTC.

const DAY_MS = 86_400_000;
const ZONE = "America/Los_Angeles";

let org: HistoryOrg;
let client: Client;
const summer = historyReport({ generated_at: "2026-07-15T01:00:00.000Z", headline: "Tuesday 18:00 PDT" });
const winter = historyReport({ generated_at: "2026-11-18T02:00:00.000Z", headline: "Tuesday 18:00 PST" });
const morning = historyReport({ generated_at: "2026-07-15T16:00:00.000Z", headline: "Wednesday 09:00 PDT" });
// The prompt's days count back from today: a report late in the evening two days ago, in the zone.
const now = Date.now();
const twoDaysAgo = calendarDayIn(new Date(now - 2 * DAY_MS), ZONE);
const lateEvening = historyReport({
  generated_at: new Date(Date.parse(`${twoDaysAgo}T23:30:00Z`) + offsetMs(`${twoDaysAgo}T23:30:00Z`)).toISOString(),
  headline: "Late evening, two days ago",
  text: "Late evening work",
});

/** Milliseconds to add to a wall-clock time in the zone (written as if UTC) to get the instant: 7 or 8 hours. */
function offsetMs(wallClock: string): number {
  const asUtc = Date.parse(wallClock);
  const local = Date.parse(new Date(asUtc).toLocaleString("sv-SE", { timeZone: ZONE }).replace(" ", "T") + "Z");
  return asUtc - local;
}

beforeAll(async () => {
  org = await createHistoryOrg();
  await setOrganizationTimeZone(org.organization.id, ZONE, { label: "test" });
  await org.add([summer, winter, morning, lateEvening]);
  client = await connectHistoryMcp(org);
});

afterAll(async () => {
  await client?.close();
  await org?.remove();
});

async function restDay(since: string, until = since): Promise<string[]> {
  const { status, body } = await call(listReports, `/api/v1/reports?since=${since}&until=${until}&limit=50`, {
    headers: bearer(org.key),
  });
  expect(status).toBe(200);
  return (body as { reports: { headline: string }[] }).reports.map((r) => r.headline);
}

describe("an organization in America/Los_Angeles", () => {
  it("finds its 18:00 report under the day it was written, through summer and winter time, on REST", async () => {
    expect(await restDay("2026-07-14")).toEqual(["Tuesday 18:00 PDT"]);
    expect(await restDay("2026-07-15")).toEqual(["Wednesday 09:00 PDT"]);
    expect(await restDay("2026-11-17")).toEqual(["Tuesday 18:00 PST"]);
    expect(await restDay("2026-11-18")).toEqual([]);
    // Instants stay instants, whatever the zone.
    expect(await restDay("2026-07-15T00:00:00Z", "2026-07-15T23:59:59.999Z")).toEqual([
      "Wednesday 09:00 PDT",
      "Tuesday 18:00 PDT",
    ]);
  });

  it("serves generated_at in UTC with Z", async () => {
    const { body } = await call(listReports, "/api/v1/reports?since=2026-07-14&until=2026-07-14", {
      headers: bearer(org.key),
    });
    expect((body as { reports: { generated_at: string }[] }).reports[0]!.generated_at).toBe("2026-07-15T01:00:00.000Z");
  });

  it("refuses a cursor made before the zone changed, and keeps one made for instants", async () => {
    const byDay = "/api/v1/reports?since=2026-07-01&until=2026-07-31&limit=1";
    const byInstant = "/api/v1/reports?since=2026-07-01T00:00:00Z&limit=1";
    const first = await call(listReports, byDay, { headers: bearer(org.key) });
    const firstInstant = await call(listReports, byInstant, { headers: bearer(org.key) });
    const cursor = (first.body as { next_cursor: string }).next_cursor;
    const instantCursor = (firstInstant.body as { next_cursor: string }).next_cursor;
    expect(cursor).toEqual(expect.any(String));
    await setOrganizationTimeZone(org.organization.id, "Europe/Berlin", { label: "test" });
    try {
      const again = await call(listReports, `${byDay}&cursor=${cursor}`, { headers: bearer(org.key) });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: "invalid_parameter", message: expect.stringMatching(/other filters/) });
      const instant = await call(listReports, `${byInstant}&cursor=${instantCursor}`, { headers: bearer(org.key) });
      expect(instant.status).toBe(200);
    } finally {
      await setOrganizationTimeZone(org.organization.id, ZONE, { label: "test" });
    }
  });

  it("refuses since after until compared as days, and takes a one-day period", async () => {
    const reversed = await call(listReports, "/api/v1/reports?since=2026-07-15&until=2026-07-14", {
      headers: bearer(org.key),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ message: "since must not be after until." });
  });

  it("finds it under that day in sundown://reports/day/{date}, which lists the zone's days", async () => {
    const { contents } = await client.readResource({ uri: "sundown://reports/day/2026-07-14" });
    const day = JSON.parse((contents[0] as { text: string }).text);
    expect(day.reports.map((r: { headline: string }) => r.headline)).toEqual(["Tuesday 18:00 PDT"]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.find((t) => t.name === "reports_of_day")?.description).toMatch(/time zone/);
    const { resources } = await client.listResources();
    const titles = resources.map((r) => r.title);
    expect(titles).toContain("Reports of 2026-07-14 (America/Los_Angeles)");
    expect(titles).not.toContain("Reports of 2026-11-18 (America/Los_Angeles)");
  });

  it("counts the prompt's days in the zone: a late evening two days ago is in three days, not in two", async () => {
    // The prompt attaches the period's briefing: what shipped in it names the late evening's work or not.
    const attached = async (days: string) => {
      const { messages } = await client.getPrompt({ name: "period_rollup", arguments: { days } });
      const resource = messages.find((m) => m.content.type === "resource");
      // A period without reports is said in words, with nothing attached.
      if (!resource) return [];
      const briefing = JSON.parse((resource.content as { resource: { text: string } }).resource.text);
      return briefing.shipped.items.flatMap((s: { titles: string[] }) => s.titles);
    };
    expect(await attached("3")).toContain("Late evening work");
    expect(await attached("2")).not.toContain("Late evening work");
  });
});
