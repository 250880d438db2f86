import { beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { createDatabaseSource } from "@/lib/mcp/database-source";
import { TOOLS, callTool } from "@/lib/mcp/tools";
import { verifyKeyHash, hashPresentedKey } from "@/lib/admission/verify-api-key";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import { createHistoryOrg, expectedOrder, historyReport, type HistoryOrg } from "../helpers/history-org";

// GET /api/v1/reports over a whole history: period, scope, member and search filters, and keyset pages.
// Each test reads its own organization, so the expected set is known exactly.

let org: HistoryOrg;
let dev: string;
let aisha: string;

const day = (n: number, hour = 17) => new Date(Date.UTC(2026, 10, n, hour, 0, 0)).toISOString();

beforeAll(async () => {
  org = await createHistoryOrg();
  dev = org.members[0]!.id;
  aisha = org.members[2]!.id;
  const reports = [];
  for (let d = 1; d <= 20; d++) {
    reports.push(historyReport({ generated_at: day(d), headline: `Org day ${d}` }));
    reports.push(
      historyReport({
        generated_at: day(d, 16),
        scope: "lead",
        scope_target_id: dev,
        text: "gripper firmware slipping",
      }),
    );
    reports.push(
      historyReport({
        generated_at: day(d, 15),
        scope: "member",
        scope_target_id: aisha,
        text: `wrote to alice@example.com about staging ${d}`,
      }),
    );
  }
  // Two more reports at the very instant of an org report, member reports about the two people no other report is
  // about (one scope, target and time is one report): the id breaks the tie, and pages must not split or repeat them.
  reports.push(
    historyReport({ generated_at: day(10), headline: "Twin A", scope: "member", scope_target_id: org.members[1]!.id }),
    historyReport({ generated_at: day(10), headline: "Twin B", scope: "member", scope_target_id: org.members[3]!.id }),
  );
  await org.add(reports);
});

async function list(query: string, key = org.key) {
  return call(listReports, `/api/v1/reports${query}`, { headers: bearer(key) });
}

async function walk(query: string, limit = 7): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? "&" : "?";
    const res = await list(`${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.reports.map((r: { id: string }) => r.id));
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  return { ids, pages };
}

describe("without the new parameters", () => {
  it("answers as before: the 14 newest, newest first, with count, plus next_cursor", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "next_cursor", "reports"]);
    expect(res.body.reports.map((r: { id: string }) => r.id)).toEqual(expectedOrder(org.reports).slice(0, 14));
    expect(res.body.count).toBe(14);
    expect(typeof res.body.next_cursor).toBe("string");
  });
});

describe("filters", () => {
  it("since and until take whole UTC days, both inclusive", async () => {
    const res = await list("?since=2026-11-05&until=2026-11-06&limit=50");
    const keep = (r: { generated_at: string }) =>
      r.generated_at >= "2026-11-05T00:00:00.000Z" && r.generated_at <= "2026-11-06T23:59:59.999Z";
    expect(res.body.reports.map((r: { id: string }) => r.id)).toEqual(expectedOrder(org.reports, keep));
    expect(res.body.count).toBe(6);
  });

  it("since and until take date-times with a zone, inclusive to the millisecond", async () => {
    const res = await list(
      `?since=${encodeURIComponent("2026-11-05T18:00:00+01:00")}&until=${encodeURIComponent(day(5, 17))}&limit=50`,
    );
    // 17:00Z (the zone's 18:00) to 17:00Z: exactly the org report of day 5.
    expect(res.body.reports.map((r: { headline: string }) => r.headline)).toEqual(["Org day 5"]);
  });

  it("scope and scope_target_id narrow to one kind of report and one person", async () => {
    const lead = await list("?scope=lead&limit=50");
    expect(lead.body.reports.map((r: { id: string }) => r.id)).toEqual(
      expectedOrder(org.reports, (r) => r.scope === "lead").slice(0, 50),
    );
    const aishas = await list(`?scope_target_id=${aisha.toUpperCase()}&limit=50`);
    expect(aishas.body.count).toBe(20);
    expect(aishas.body.reports.every((r: { scope_target_id: string }) => r.scope_target_id === aisha)).toBe(true);
    const none = await list(`?scope=org&scope_target_id=${aisha}`);
    expect(none.body).toMatchObject({ reports: [], count: 0, next_cursor: null });
  });

  it("q finds words in the served text, stemmed, and never an address that was removed", async () => {
    const slipped = await list("?q=slipped&limit=50");
    expect(slipped.body.count).toBe(20);
    expect(slipped.body.reports.every((r: { scope: string }) => r.scope === "lead")).toBe(true);
    const staging12 = await list(`?q=${encodeURIComponent("staging 12")}`);
    expect(staging12.body.count).toBe(1);
    for (const probe of ["alice@example.com", "alice", "example.com"]) {
      const res = await list(`?q=${encodeURIComponent(probe)}`);
      expect(res.body.count, probe).toBe(0);
    }
  });
});

describe("pages", () => {
  it("walking every page yields each report once, in the list's order, and links the next page", async () => {
    const { ids, pages } = await walk("");
    expect(ids).toEqual(expectedOrder(org.reports));
    expect(pages).toBe(Math.ceil(org.reports.length / 7));
    const first = await list("?limit=7&scope=member");
    const link = first.headers.get("link")!;
    expect(link).toMatch(
      /^<http:\/\/localhost:3000\/api\/v1\/reports\?limit=7&scope=member&cursor=[^>]+>; rel="next"$/,
    );
    const last = await walk("?scope=member", 50);
    expect(last.pages).toBe(1);
  });

  it("a filtered walk yields exactly the filtered set", async () => {
    const { ids } = await walk(`?since=2026-11-03&until=2026-11-15&scope_target_id=${dev}`, 4);
    expect(ids).toEqual(
      expectedOrder(
        org.reports,
        (r) => r.scope_target_id === dev && r.generated_at >= "2026-11-03" && r.generated_at < "2026-11-16",
      ),
    );
  });

  it("stay stable while new reports arrive between pages", async () => {
    const own = await createHistoryOrg();
    await own.add(Array.from({ length: 12 }, (_, i) => historyReport({ generated_at: day(i + 1) })));
    const first = await call(listReports, "/api/v1/reports?limit=5", { headers: bearer(own.key) });
    await own.add([historyReport({ generated_at: day(25) }), historyReport({ generated_at: day(3, 12) })]);
    const second = await call(
      listReports,
      `/api/v1/reports?limit=5&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      {
        headers: bearer(own.key),
      },
    );
    const seen = [...first.body.reports, ...second.body.reports].map((r: { id: string }) => r.id);
    // The newer report lands before the first page (already read); the older one takes its place in order.
    expect(new Set(seen).size).toBe(10);
    const older = expectedOrder(own.reports).filter(
      (id) => own.reports.find((r) => r.id === id)!.generated_at < first.body.reports[4].generated_at,
    );
    expect(second.body.reports.map((r: { id: string }) => r.id)).toEqual(older.slice(0, 5));
  });

  it("refuses a cursor with other filters, an edited one, and another organization's", async () => {
    const page = await list("?scope=lead&limit=3");
    const cursor = page.body.next_cursor as string;
    const otherFilters = await list(`?scope=member&cursor=${encodeURIComponent(cursor)}`);
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body.message).toContain("cursor was made for other filters");

    const [payload, signature] = cursor.split(".");
    const edited = `${payload}.${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`;
    const tampered = await list(`?scope=lead&cursor=${encodeURIComponent(edited)}`);
    expect(tampered.status).toBe(400);
    expect(tampered.body).toMatchObject({
      error: "invalid_parameter",
      message: expect.stringContaining("cursor must be"),
    });

    const other = await createHistoryOrg();
    const foreign = await call(listReports, `/api/v1/reports?scope=lead&cursor=${encodeURIComponent(cursor)}`, {
      headers: bearer(other.key),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe("invalid_parameter");
  });
});

describe("bad values: 400 invalid_parameter naming the parameter", () => {
  it.each([
    ["since=2026-02-30", "since"],
    ["since=yesterday", "since"],
    ["until=2026-11-20T10:00:00", "until"],
    ["until=2026-11-20T10:00:00.1234Z", "until"],
    ["since=2026-11-21&until=2026-11-20", "since must not be after until"],
    ["scope=team", "scope"],
    ["scope_target_id=dev", "scope_target_id"],
    ["q=", "q"],
    ["q=%00", "q"],
    [`q=${"w".repeat(201)}`, "q"],
    ["cursor=abc", "cursor"],
    ["since=2026-11-01&since=2026-11-02", "only once"],
    // Past 9999 in UTC once the offset is applied, or before 1970: no storable instant (lib/schemas/instant.ts).
    ["since=9999-12-31T23:59:59-05:00", "since must lie between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z"],
    ["until=9999-12-31T23:59:59-05:00", "until must lie between"],
    ["since=1969-12-31", "since must lie between"],
    ["until=0001-01-01T00:00:00Z", "until must lie between"],
  ])("%s", async (query, named) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_parameter");
    expect(res.body.message).toContain(named);
  });
});

describe("a parameter list_reports does not define", () => {
  it("is refused, not ignored: member_id is not a filter, and the message names the one that is", async () => {
    const res = await list(`?member_id=${aisha}&limit=50`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "invalid_parameter",
      message:
        "Unknown parameter member_id: GET /api/v1/reports takes limit, since, until, scope, scope_target_id, q, cursor, expand.",
      request_id: res.headers.get("x-request-id"),
    });
    // The name it lists is the filter that was meant.
    const meant = await list(`?scope_target_id=${aisha}&limit=50`);
    expect(meant.body.count).toBe(20);
  });
});

describe("GET /api/v1/team filters", () => {
  it("role and active narrow the roster", async () => {
    const leads = await call(listTeam, "/api/v1/team?role=lead", { headers: bearer(org.key) });
    expect(leads.body.members.map((m: { name: string }) => m.name)).toEqual(["Dev Patel", "Grace Kim"]);
    const inactive = await call(listTeam, "/api/v1/team?active=false", { headers: bearer(org.key) });
    expect(inactive.body.members.map((m: { name: string }) => m.name)).toEqual(["Grace Kim"]);
    const activeLeads = await call(listTeam, "/api/v1/team?role=lead&active=true", { headers: bearer(org.key) });
    expect(activeLeads.body.count).toBe(1);
    const bad = await call(listTeam, "/api/v1/team?active=yes", { headers: bearer(org.key) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("active must be true or false.");
  });
});

describe("MCP list_reports and list_team", () => {
  it("take the same arguments and return next_cursor in structuredContent", async () => {
    const { key } = await verifyKeyHash(hashPresentedKey(org.key));
    const source = createDatabaseSource(key);
    const tool = TOOLS.find((t) => t.name === "list_reports")!;
    const first = await callTool(tool, source, { scope: "lead", limit: 15 });
    const content = first.structuredContent as { count: number; next_cursor: string };
    expect(content.count).toBe(15);
    const second = await callTool(tool, source, { scope: "lead", limit: 15, cursor: content.next_cursor });
    expect((second.structuredContent as { count: number; next_cursor: null }).count).toBe(5);
    expect((second.structuredContent as { next_cursor: null }).next_cursor).toBeNull();
    const bad = await callTool(tool, source, { since: "2026-11-21", until: "2026-11-20" });
    expect(bad).toMatchObject({
      isError: true,
      content: [{ text: "invalid_parameter: since must not be after until." }],
    });
    const beyond = await callTool(tool, source, { since: "9999-12-31T23:59:59-05:00" });
    expect(beyond).toMatchObject({
      isError: true,
      content: [
        {
          text: "invalid_parameter: since must lie between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC).",
        },
      ],
    });
    // The largest instant there is still a valid bound, and finds nothing newer.
    const last = await callTool(tool, source, { since: "9999-12-31T23:59:59.999Z" });
    expect(last).toMatchObject({ structuredContent: { count: 0, next_cursor: null } });
    const team = await callTool(
      TOOLS.find((t) => t.name === "list_team")!,
      source,
      { role: "member" },
    );
    expect((team.structuredContent as { count: number }).count).toBe(2);
    const guessed = await callTool(tool, source, { member_id: aisha });
    expect(guessed).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: "invalid_parameter: Unknown parameter member_id: list_reports takes limit, since, until, scope, scope_target_id, q, cursor, expand.",
        },
      ],
    });
  });
});
