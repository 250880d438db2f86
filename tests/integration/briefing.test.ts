import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getBriefing } from "@/app/api/v1/briefing/route";
import { listAbsences, removeAbsence, writeAbsences } from "@/lib/data/absences";
import { heldBriefings } from "@/lib/data/briefing-cache";
import { importReports } from "@/lib/data/import-reports";
import { reportItemsInsertSql } from "@/lib/data/report-items";
import { deleteReport } from "@/lib/data/report-deletion";
import { getDb } from "@/lib/db";
import type { Briefing } from "@/lib/schemas/briefing";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";
import { connectHistoryMcp } from "../helpers/history-mcp";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";

// Issue 39: the briefing's rules on fixtures, one organization of its own. Five organization reports, one a day from
// 2026-11-02 to 2026-11-06 at 18:00Z (a UTC organization), whose items are written the ways reports write them:
// with member ids and with names only, in other cases and accents, with the vocabulary's synonyms.

let org: HistoryOrg;
let client: Client;
let jose: string;
const ids: string[] = [];
const PERIOD = "since=2026-11-02&until=2026-11-06";

type Item = Record<string, unknown>;
interface Content {
  blockers?: Item[];
  silent?: Item[];
  slipping?: Item[];
  kpi_status?: Item[];
  shipped?: Item[];
}

function report(day: string, content: Content, id: string = randomUUID()) {
  return {
    id,
    scope: "org" as const,
    scope_target_id: null,
    generated_at: `2026-11-${day}T18:00:00.000Z`,
    report: {
      headline: `Day ${day}`,
      kpi_status: content.kpi_status ?? [],
      shipped: content.shipped ?? [],
      silent: content.silent ?? [],
      slipping: content.slipping ?? [],
      blockers: content.blockers ?? [],
    },
  };
}

const kpi = (value: number, status: string) => ({ name: "Units shipped", value, unit: "units", target: 40, status });

beforeAll(async () => {
  org = await createHistoryOrg();
  const [dev, , aisha, tom] = org.members;
  jose = randomUUID();
  await (
    await getDb()
  ).member.create({
    data: {
      id: jose,
      organizationId: org.organization.id,
      name: "José Núñez",
      role: "member",
      email: "jose.nunez@example.com",
    },
  });
  const reports = [
    report("02", {
      blockers: [{ description: "Staging DB out of disk", owner: "Aisha Khan", since_days: 1 }],
      kpi_status: [kpi(30, "on_track")],
      shipped: [{ title: "Gripper firmware 2.4", owner: "Aisha Khan" }],
    }),
    report("03", {
      blockers: [
        { description: "staging db out of disk!", owner: "AISHA KHAN", since_days: 2 },
        { description: "Café API contract unsigned", owner: "José Núñez", member_id: jose, since_days: 2 },
      ],
      kpi_status: [kpi(29, "on_track")],
      slipping: [{ item: "pick-rate model", owner: "Aisha Khan", days_late: 2, reason: "vendor parts" }],
      shipped: [{ title: "gripper firmware 2.4", owner: "aisha khan" }],
    }),
    report("04", {
      blockers: [
        { description: "Staging DB out of disk", owner: "aisha khan", since_days: 3 },
        { text: "CAFE api contract unsigned", owner: "jose nunez" },
      ],
      silent: [{ member: "Dev Patel", member_id: dev!.id, days_silent: 1 }],
      kpi_status: [kpi(28, "at_risk")],
      slipping: [{ item: "Pick-rate model", owner: "Aisha Khan", days_late: 3 }],
    }),
    report("05", {
      blockers: [{ description: "Café API contract unsigned", owner: "José Núñez", member_id: jose }],
      silent: [{ member: "Tom Berg", days_silent: 1 }],
      // Synonyms: metric, current, goal, state (in capitals).
      kpi_status: [{ metric: "units shipped", current: 31, goal: 40, state: "AT_RISK" }],
    }),
    report("06", {
      blockers: [
        { description: "café api contract unsigned", owner: "José Núñez", member_id: jose },
        { owner: "Tom Berg" },
      ],
      silent: [{ member: "tom berg", member_id: tom!.id, days_silent: 2 }],
      kpi_status: [kpi(35, "on_track")],
      slipping: [
        {
          title: "Docs for the pick API",
          member: "Dev Patel",
          days_late: 1,
          why: "review queue, ask jose.nunez@example.com",
        },
      ],
      shipped: [
        { title: "Pick-rate dashboard", member_id: aisha!.id },
        { title: "Release notes", owner: "Nobody On The Roster" },
      ],
    }),
  ];
  ids.push(...reports.map((r) => r.id));
  await importReports(org.organization, reports, { actor: { label: "test" } });
  client = await connectHistoryMcp(org);
});

afterAll(async () => {
  await client?.close();
  await org?.remove();
});

async function rest(query: string, headers: Record<string, string> = {}) {
  return call(getBriefing, `/api/v1/briefing?${query}`, { headers: { ...bearer(org.key), ...headers } });
}

async function briefing(query = PERIOD): Promise<Briefing> {
  const res = await rest(query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Briefing;
}

describe("the briefing's blockers", () => {
  it("is one blocker across reports for the same owner and text, whatever the case, accents and punctuation", async () => {
    const { blockers } = await briefing();
    expect(blockers.count).toBe(3);
    const texts = blockers.items.map((b) => b.text);
    expect(texts).toHaveLength(3);
    const cafe = blockers.items.find((b) => /caf/i.test(b.text ?? ""))!;
    expect(cafe).toMatchObject({
      text: "café api contract unsigned",
      owner: "José Núñez",
      member_id: jose,
      first_reported_at: "2026-11-03T18:00:00.000Z",
      last_reported_at: "2026-11-06T18:00:00.000Z",
      resolved: false,
      resolved_at: null,
      report_count: 4,
    });
    expect(cafe.report_ids).toEqual([ids[4], ids[3], ids[2], ids[1]]);
    // From its first report (since_days 2 then) to the period's end, 2026-11-06T23:59:59.999Z: 3 days more.
    expect(cafe.days_open).toBe(5);
  });

  it("marks one carried for days then dropped as resolved, when the next report left it out, after the open ones", async () => {
    const { blockers } = await briefing();
    const staging = blockers.items.at(-1)!;
    expect(staging).toMatchObject({
      text: "Staging DB out of disk",
      owner: "aisha khan",
      member_id: org.members[2]!.id,
      first_reported_at: "2026-11-02T18:00:00.000Z",
      last_reported_at: "2026-11-04T18:00:00.000Z",
      resolved: true,
      resolved_at: "2026-11-05T18:00:00.000Z",
      report_count: 3,
    });
    // since_days 1 at its first report, open three days until the report that dropped it.
    expect(staging.days_open).toBe(4);
  });

  it("counts and shows an item without text, with no age", async () => {
    const { blockers } = await briefing();
    expect(blockers.items.filter((b) => !b.resolved).map((b) => [b.text, b.owner, b.days_open])).toEqual([
      ["café api contract unsigned", "José Núñez", 5],
      [null, "Tom Berg", null],
    ]);
  });

  it("is open when the period ends before the report that dropped it", async () => {
    const { blockers } = await briefing("since=2026-11-02&until=2026-11-04");
    const staging = blockers.items.find((b) => b.text === "Staging DB out of disk")!;
    expect(staging).toMatchObject({ resolved: false, days_open: 3 });
  });

  it("masks the organization's contact details", async () => {
    const body = JSON.stringify(await briefing());
    expect(body).not.toContain("jose.nunez@example.com");
  });
});

describe("the briefing's other sections", () => {
  it("silent: the people the newest report lists, with their streak and its first day; not those silent before", async () => {
    const { silent } = await briefing();
    expect(silent).toEqual({
      items: [
        {
          member: "tom berg",
          member_id: org.members[3]!.id,
          days: 2,
          since: "2026-11-05",
          reported_at: "2026-11-06T18:00:00.000Z",
          report_id: ids[4],
        },
      ],
      count: 1,
      limit: 10,
      more: 0,
    });
  });

  it("slipping: by owner, each item with its latest days late and reason, first and last seen", async () => {
    const { slipping } = await briefing();
    expect(slipping.items).toEqual([
      {
        owner: "Aisha Khan",
        member_id: org.members[2]!.id,
        count: 1,
        items: [
          {
            text: "Pick-rate model",
            days_late: 3,
            reason: "vendor parts",
            first_seen_at: "2026-11-03T18:00:00.000Z",
            last_seen_at: "2026-11-04T18:00:00.000Z",
          },
        ],
      },
      {
        owner: "Dev Patel",
        member_id: org.members[0]!.id,
        count: 1,
        items: [
          {
            text: "Docs for the pick API",
            days_late: 1,
            // A contact detail of the organization's, masked wherever it is served.
            reason: "review queue, ask [email hidden]",
            first_seen_at: "2026-11-06T18:00:00.000Z",
            last_seen_at: "2026-11-06T18:00:00.000Z",
          },
        ],
      },
    ]);
  });

  it("kpis: the latest value, a point a day, and each change of status, synonyms read", async () => {
    const { kpis } = await briefing();
    expect(kpis.items).toEqual([
      {
        name: "Units shipped",
        value: 35,
        unit: "units",
        target: 40,
        status: "on_track",
        reported_at: "2026-11-06T18:00:00.000Z",
        series: [
          { day: "2026-11-02", value: 30, status: "on_track" },
          { day: "2026-11-03", value: 29, status: "on_track" },
          { day: "2026-11-04", value: 28, status: "at_risk" },
          { day: "2026-11-05", value: 31, status: "at_risk" },
          { day: "2026-11-06", value: 35, status: "on_track" },
        ],
        status_changes: [
          { day: "2026-11-04", from: "on_track", to: "at_risk" },
          { day: "2026-11-06", from: "at_risk", to: "on_track" },
        ],
      },
    ]);
  });

  it("shipped: per person, each item once, by member id or by name; a name off the roster keeps its owner", async () => {
    const { shipped } = await briefing();
    expect(shipped.items).toEqual([
      {
        owner: null,
        member_id: org.members[2]!.id,
        count: 2,
        titles: ["Pick-rate dashboard", "gripper firmware 2.4"],
      },
      { owner: "Nobody On The Roster", member_id: null, count: 1, titles: ["Release notes"] },
    ]);
  });

  it("lists at most limit per section and says how many more", async () => {
    const { blockers, period } = await briefing(`${PERIOD}&limit=1`);
    expect(blockers).toMatchObject({ count: 3, limit: 1, more: 2 });
    expect(blockers.items).toHaveLength(1);
    expect(period).toEqual({
      since: "2026-11-02T00:00:00.000Z",
      until: "2026-11-06T23:59:59.999Z",
      time_zone: "UTC",
      reports: 5,
    });
  });
});

describe("GET /api/v1/briefing", () => {
  it("answers 304 to its own ETag", async () => {
    const first = await rest(PERIOD);
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await rest(PERIOD, { "If-None-Match": etag });
    expect(again.status).toBe(304);
  });

  it("refuses an unknown parameter, a limit out of range and a reversed period", async () => {
    const unknown = await rest(`${PERIOD}&member_id=${jose}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      error: "invalid_parameter",
      message: expect.stringMatching(/^Unknown parameter member_id/),
    });
    const limit = await rest("limit=101");
    expect(limit.body).toMatchObject({ message: "limit must be an integer from 1 to 100 (default 10)." });
    const reversed = await rest("since=2026-11-06&until=2026-11-02");
    expect(reversed.body).toMatchObject({ message: "since must not be after until." });
  });

  it("answers text/markdown with the same facts", async () => {
    const res = await call(getBriefing, `/api/v1/briefing?${PERIOD}`, {
      headers: { ...bearer(org.key), Accept: "text/markdown" },
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Blockers (3):");
    expect(res.text).toContain("tom berg");
  });
});

describe("get_briefing", () => {
  it("gives REST's answer as structured content, with its text", async () => {
    const result = await client.callTool({
      name: "get_briefing",
      arguments: { since: "2026-11-02", until: "2026-11-06", limit: 5 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await briefing(`${PERIOD}&limit=5`));
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain("Units shipped: 35 units (target 40) · on_track · 5 days");
  });

  it("says what it is for", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "get_briefing")?.description).toMatch(
      /running a team, not for watching people/,
    );
  });
});

describe("absent people", () => {
  const tomSilent = () => ({
    member: "tom berg",
    member_id: org.members[3]!.id,
    reported_at: "2026-11-06T18:00:00.000Z",
    report_id: ids[4],
  });

  async function absent(firstDay: string, lastDay: string) {
    await (
      await getDb()
    ).$transaction((tx) =>
      writeAbsences(tx, org.organization.id, [{ memberId: org.members[3]!.id, firstDay, lastDay }]),
    );
  }

  async function cameBack() {
    for (const { id } of await listAbsences(org.organization.id)) await removeAbsence(org.organization.id, id);
  }

  it("are not silent when absent on the period's last day, and are again once the absence is gone", async () => {
    // Asked first, so the answer held for these arguments is the one the absence must replace.
    expect((await briefing()).silent.items).toEqual([{ ...tomSilent(), days: 2, since: "2026-11-05" }]);
    await absent("2026-11-06", "2026-11-09");
    expect((await briefing()).silent).toMatchObject({ items: [], count: 0 });
    await cameBack();
    expect((await briefing()).silent.items).toEqual([{ ...tomSilent(), days: 2, since: "2026-11-05" }]);
  });

  it("do not count the days they were absent in a silent streak", async () => {
    await absent("2026-11-01", "2026-11-05");
    try {
      expect((await briefing()).silent.items).toEqual([{ ...tomSilent(), days: 1, since: "2026-11-06" }]);
      const text = await call(getBriefing, `/api/v1/briefing?${PERIOD}`, {
        headers: { ...bearer(org.key), Accept: "text/markdown" },
      });
      expect(text.text).toContain(`- tom berg [${org.members[3]!.id}] · 1 day since 2026-11-06`);
      // The period ends before the absence does: absent on its last day.
      expect((await briefing("since=2026-11-02&until=2026-11-05")).silent.count).toBe(0);
    } finally {
      await cameBack();
    }
  });
});

describe("the answer a server keeps", () => {
  it("is never another organization's, asked the same", async () => {
    const other = await createHistoryOrg();
    try {
      await importReports(
        other.organization,
        [report("06", { blockers: [{ description: "Other team's blocker", owner: "Someone" }] })],
        { actor: { label: "test" } },
      );
      expect((await briefing()).blockers.count).toBe(3);
      const res = await call(getBriefing, `/api/v1/briefing?${PERIOD}`, { headers: bearer(other.key) });
      expect(res.status).toBe(200);
      expect((res.body as Briefing).blockers.items.map((b) => b.text)).toEqual(["Other team's blocker"]);
      expect((await briefing()).blockers.count).toBe(3);
    } finally {
      await other.remove();
    }
  });

  it("holds while the period has ended; else only until the next whole day of an open blocker", async () => {
    const ours = (query: unknown[]) =>
      heldBriefings(JSON.stringify(query))
        .map((entry) => entry.held)
        .filter((held) => held.startsWith(`${org.organization.id}:`));
    await briefing();
    expect(ours([10, "2026-11-02", null, "2026-11-06", null, null, null])).toEqual([expect.stringMatching(/@$/)]);
    await briefing("since=2026-11-02&until=2099-12-31");
    // The Café blocker, first reported on 2026-11-03 at 18:00Z, is a day older at every 18:00Z from then on.
    const next = new Date();
    next.setUTCHours(18, 0, 0, 0);
    if (next.getTime() <= Date.now()) next.setUTCDate(next.getUTCDate() + 1);
    expect(ours([10, "2026-11-02", null, "2099-12-31", null, null, null])).toEqual([
      expect.stringMatching(new RegExp(`@${next.getTime()}$`)),
    ]);
  });

  it("moves with the contact details it masked", async () => {
    const before = JSON.stringify(await briefing());
    expect(before).toContain("Pick-rate model");
    const db = await getDb();
    // A member's own handle is masked in text even without an at-sign, when it mixes letters with other characters.
    await db.member.update({ where: { id: jose }, data: { chatHandle: "pick-rate" } });
    try {
      expect(JSON.stringify(await briefing())).not.toContain("Pick-rate model");
    } finally {
      await db.member.update({ where: { id: jose }, data: { chatHandle: null } });
    }
    expect(JSON.stringify(await briefing())).toBe(before);
  });
});

describe("the items behind it", () => {
  it("follow a replaced report and go with a deleted one", async () => {
    const replaced = report("06", { blockers: [{ description: "New blocker", owner: "Dev Patel" }] }, ids[4]);
    await importReports(org.organization, [replaced], { replace: true, actor: { label: "test" } });
    const after = await briefing();
    expect(after.blockers.items.filter((b) => !b.resolved).map((b) => b.text)).toEqual(["New blocker"]);
    expect(after.silent.count).toBe(0);
    await deleteReport(org.organization.id, ids[4]!, { label: "test" });
    const rows = await (await getDb()).reportItem.count({ where: { reportId: ids[4]! } });
    expect(rows).toBe(0);
    const gone = await briefing();
    expect(gone.period.reports).toBe(4);
    // The Café blocker's newest report is now the 5th's, which still lists it.
    expect(gone.blockers.items.filter((b) => !b.resolved).map((b) => b.text)).toEqual(["Café API contract unsigned"]);
  });

  it("were backfilled by the migration with the extraction the code runs", () => {
    const migration = readFileSync(
      path.join(import.meta.dirname, "../../prisma/migrations/20261216000000_report_items/migration.sql"),
      "utf8",
    );
    expect(migration).toContain(reportItemsInsertSql("true", "true"));
  });
});
