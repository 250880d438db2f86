import { describe, expect, it } from "vitest";
import { malformedKeys, mcpListReportsBody, parseMcpBody, weekBefore } from "@/bench/scenarios";
import {
  checkBudgets,
  pairedRatios,
  formatVerdict,
  median,
  percentile,
  summarizePoint,
  type PointSummary,
  type RunMeasurement,
} from "@/bench/stats";
import { generateApiKey, isWellFormedApiKey } from "@/lib/auth/api-key";

function run(overrides: Partial<RunMeasurement> = {}): RunMeasurement {
  return {
    requests: 1000,
    durationSeconds: 1,
    p50Ms: 2,
    p99Ms: 4,
    statuses: { "200": 1000 },
    errors: 0,
    cpuMs: 500,
    peakRssMiB: 150,
    ...overrides,
  };
}

function point(
  scenario: string,
  connections: number,
  rps: number,
  overrides: Partial<PointSummary> = {},
): PointSummary {
  return {
    scenario,
    label: scenario,
    connections,
    runs: 1,
    rps,
    p50Ms: 2,
    p99Ms: 4,
    statuses: { "200": rps },
    unexpected: 0,
    non2xx: 0,
    cpuMsPerRequest: 0.5,
    dbCpuMsPerRequest: Number.NaN,
    peakRssMiB: 150,
    ...overrides,
  };
}

const HEALTHY = [10, 100].flatMap((c) => [
  point("root", c, 1000, { cpuMsPerRequest: 0.5 }),
  point("reports", c, 700, { cpuMsPerRequest: 1.0, dbCpuMsPerRequest: 0.2 }),
  point("anchor-reports", c, 750, { cpuMsPerRequest: 0.95, dbCpuMsPerRequest: 0.18 }),
  point("me", c, 800),
  point("me-malformed", c, 1300, { cpuMsPerRequest: 0.45 }),
  point("mcp-list-reports", c, 600),
  point("mcp-list-reports-2026", c, 600),
]);

describe("percentile", () => {
  it("uses the nearest rank", () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
  });

  it("is NaN without values", () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("median", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN when empty or when a run has no value", () => {
    expect(median([])).toBeNaN();
    expect(median([1, Number.NaN, 3])).toBeNaN();
  });
});

describe("summarizePoint", () => {
  it("takes medians of rate, latency and CPU per request, the highest memory, and sums statuses", () => {
    const summary = summarizePoint(
      { scenario: "reports", label: "GET /api/v1/reports", connections: 10, expect: [200] },
      [
        run({ requests: 1000, p50Ms: 2, cpuMs: 1000, dbCpuMs: 200, peakRssMiB: 140 }),
        run({ requests: 3000, p50Ms: 6, cpuMs: 900, dbCpuMs: 900, peakRssMiB: 180 }),
        run({
          requests: 2000,
          p50Ms: 3,
          cpuMs: 1000,
          dbCpuMs: 500,
          peakRssMiB: 160,
          statuses: { "200": 1990, "503": 10 },
        }),
      ],
    );
    expect(summary.rps).toBe(2000);
    expect(summary.p50Ms).toBe(3);
    expect(summary.cpuMsPerRequest).toBe(0.5);
    expect(summary.dbCpuMsPerRequest).toBe(0.25);
    expect(summary.peakRssMiB).toBe(180);
    expect(summary.statuses).toEqual({ "200": 3990, "503": 10 });
    expect(summary.non2xx).toBe(10);
    expect(summary.unexpected).toBe(10);
  });

  it("counts expected refusals as non-2xx but not as unexpected, and connection errors as unexpected", () => {
    const summary = summarizePoint({ scenario: "me-malformed", label: "x", connections: 10, expect: [401, 429] }, [
      run({ statuses: { "401": 60, "429": 900, "500": 1 }, errors: 2 }),
    ]);
    expect(summary.non2xx).toBe(961);
    expect(summary.unexpected).toBe(3);
  });
});

const PG_900 = { ms: 900, embedded: false };

describe("checkBudgets", () => {
  it("passes every ratio of a healthy run", () => {
    const verdicts = checkBudgets(HEALTHY, PG_900);
    expect(verdicts.filter((v) => v.status !== "ok")).toEqual([]);
    expect(verdicts.find((v) => v.name.startsWith("c=10: keyed /api/v1/reports ÷ /api/v1"))?.measured).toBeCloseTo(0.7);
    expect(verdicts.find((v) => v.name.includes("bare Next.js route, server"))?.measured).toBeCloseTo(1.053);
    expect(verdicts.find((v) => v.name.startsWith("c=100: malformed-key /api/v1/me"))?.measured).toBeCloseTo(1.625);
  });

  it("reports each missed budget with its measured value", () => {
    const slowMcp = HEALTHY.map((p) =>
      p.scenario === "mcp-list-reports-2026" && p.connections === 100 ? { ...p, rps: 400 } : p,
    );
    const spiky = slowMcp.map((p) => (p.scenario === "me" && p.connections === 10 ? { ...p, p99Ms: 7 } : p));
    const fat = spiky.map((p) => (p.connections === 100 && p.scenario === "root" ? { ...p, peakRssMiB: 320 } : p));
    const missed = checkBudgets(fat, { ms: 2000, embedded: false }).filter((v) => v.status === "MISSED");
    expect(missed.map((v) => v.name)).toEqual([
      "c=100: MCP list_reports (2026-07-28) ÷ REST /api/v1/reports rps",
      "c=10: me p99 ÷ p50",
      "cold start on PostgreSQL (spawn → first keyed 200), median",
      "peak RSS of the server at c=100",
    ]);
    expect(formatVerdict(missed[0]!)).toBe(
      "MISSED c=100: MCP list_reports (2026-07-28) ÷ REST /api/v1/reports rps: 0.57× (budget >= 0.8×)",
    );
  });

  it("holds the keyed list's CPU to the bare Next.js route's, server and database, and a 401 to the root's", () => {
    const heavy = HEALTHY.map((p) =>
      p.scenario === "reports" && p.connections === 10 ? { ...p, cpuMsPerRequest: 1.2, dbCpuMsPerRequest: 0.4 } : p,
    ).map((p) => (p.scenario === "me-malformed" && p.connections === 100 ? { ...p, cpuMsPerRequest: 0.6 } : p));
    const missed = checkBudgets(heavy, PG_900).filter((v) => v.status === "MISSED");
    expect(missed.map(formatVerdict)).toEqual([
      "MISSED c=10: keyed /api/v1/reports ÷ bare Next.js route, server CPU/req: 1.26× (budget <= 1.1×)",
      "MISSED c=10: keyed /api/v1/reports ÷ bare Next.js route, PostgreSQL CPU/req: 2.22× (budget <= 1.2×)",
      "MISSED c=100: malformed-key 401 ÷ public /api/v1, server CPU/req: 1.20× (budget <= 1×)",
    ]);
  });

  it("shows beside MCP's budget what the anchor's own MCP route keeps of its REST route, where it served both", () => {
    const withAnchorMcp = [
      ...HEALTHY,
      point("anchor-mcp-list-reports", 10, 525),
      point("anchor-mcp-list-reports-2026", 10, 480, { unexpected: 3 }),
    ];
    const lines = checkBudgets(withAnchorMcp, PG_900)
      .filter((v) => v.name.includes("MCP"))
      .map(formatVerdict);
    expect(lines).toEqual([
      "ok     c=10: MCP list_reports (2025-11-25) ÷ REST /api/v1/reports rps: 0.86× (budget >= 0.8×; the anchor's 0.70×)",
      // An anchor point with wrong answers compares nothing: left out, not shown as a floor.
      "ok     c=10: MCP list_reports (2026-07-28) ÷ REST /api/v1/reports rps: 0.86× (budget >= 0.8×)",
      "ok     c=100: MCP list_reports (2025-11-25) ÷ REST /api/v1/reports rps: 0.86× (budget >= 0.8×)",
      "ok     c=100: MCP list_reports (2026-07-28) ÷ REST /api/v1/reports rps: 0.86× (budget >= 0.8×)",
    ]);
  });

  it("takes the anchor's ratios from the alternating slices' totals where they were measured", () => {
    // Whole runs say 1.05× (HEALTHY); the slices, summed, say Sundown spent 1.3× the anchor's CPU per request.
    const paired = {
      connections: 10,
      sundown: [run({ requests: 1000, cpuMs: 1200, dbCpuMs: 300 }), run({ requests: 1000, cpuMs: 1400, dbCpuMs: 300 })],
      anchor: [run({ requests: 1500, cpuMs: 1500, dbCpuMs: 250 }), run({ requests: 500, cpuMs: 500, dbCpuMs: 250 })],
    };
    expect(pairedRatios(paired)).toEqual({ cpu: 1.3, db: 1.2 });
    const verdicts = checkBudgets(HEALTHY, PG_900, [paired]).filter((v) => v.name.includes("bare Next.js route"));
    expect(verdicts.map(formatVerdict)).toEqual([
      "MISSED c=10: keyed /api/v1/reports ÷ bare Next.js route, server CPU/req: 1.30× (budget <= 1.1×)",
      "ok     c=10: keyed /api/v1/reports ÷ bare Next.js route, PostgreSQL CPU/req: 1.20× (budget <= 1.2×)",
      "ok     c=100: keyed /api/v1/reports ÷ bare Next.js route, server CPU/req: 1.05× (budget <= 1.1×)",
      "ok     c=100: keyed /api/v1/reports ÷ bare Next.js route, PostgreSQL CPU/req: 1.11× (budget <= 1.2×)",
    ]);
  });

  it("says n/a for the anchor's ratios when the run had no anchor (the embedded database)", () => {
    const verdicts = checkBudgets(
      HEALTHY.filter((p) => p.scenario !== "anchor-reports"),
      PG_900,
    ).filter((v) => v.name.includes("bare Next.js route"));
    expect(verdicts).toHaveLength(4);
    expect(verdicts.every((v) => v.status === "n/a")).toBe(true);
  });

  it("misses a ratio whose scenario answered with unexpected statuses, however fast", () => {
    const broken = HEALTHY.map((p) => (p.scenario === "mcp-list-reports" ? { ...p, rps: 5000, unexpected: 5000 } : p));
    const verdict = checkBudgets(broken, PG_900).find((v) => v.name.startsWith("c=10: MCP"))!;
    expect(verdict.status).toBe("MISSED");
    expect(verdict.caveat).toBe("unexpected statuses or errors in mcp-list-reports c=10");
  });

  it("holds a cold start to 1 s on PostgreSQL and 2 s on the embedded database", () => {
    const startOf = (ms: number, embedded: boolean) =>
      checkBudgets(HEALTHY, { ms, embedded }).find((v) => v.name.startsWith("cold start"))!.status;
    expect([startOf(1200, false), startOf(1200, true), startOf(2100, true)]).toEqual(["MISSED", "ok", "MISSED"]);
  });

  it("marks what a quick run did not measure as n/a, not as met", () => {
    const verdicts = checkBudgets(
      HEALTHY.filter((p) => p.connections === 10),
      { ms: Number.NaN, embedded: false },
    );
    expect(verdicts.find((v) => v.name.startsWith("peak RSS"))?.status).toBe("n/a");
    expect(formatVerdict(verdicts.find((v) => v.name.startsWith("cold start"))!)).toBe(
      "n/a    cold start on PostgreSQL (spawn → first keyed 200), median: n/a (budget <= 1000 ms)",
    );
    expect(verdicts.some((v) => v.name.startsWith("c=100"))).toBe(false);
  });
});

describe("checkBudgets: the report history's points", () => {
  const history = (rps: Record<string, number>) => [
    ...HEALTHY,
    ...Object.entries(rps).map(([scenario, r]) => point(scenario, 10, r)),
  ];

  it("holds each point to 0.8× of the unfiltered first page at c=10", () => {
    const verdicts = checkBudgets(
      history({ "reports-week": 600, "reports-member": 560, "reports-search": 540, "reports-page200": 700 }),
      PG_900,
    );
    const ratios = verdicts.filter((v) => v.name.endsWith("÷ /api/v1/reports rps"));
    expect(ratios.map((v) => [v.name, v.status])).toEqual([
      ["c=10: reports-week ÷ /api/v1/reports rps", "ok"],
      ["c=10: reports-member ÷ /api/v1/reports rps", "ok"],
      ["c=10: reports-search ÷ /api/v1/reports rps", "MISSED"],
      ["c=10: reports-page200 ÷ /api/v1/reports rps", "ok"],
    ]);
    expect(formatVerdict(ratios[2]!)).toBe("MISSED c=10: reports-search ÷ /api/v1/reports rps: 0.77× (budget >= 0.8×)");
  });

  it("checks only the points a run measured, and misses one whose first page answered wrongly", () => {
    const points = history({ "reports-week": 650 }).map((p) =>
      p.scenario === "reports" && p.connections === 10 ? { ...p, unexpected: 3 } : p,
    );
    const ratios = checkBudgets(points, PG_900).filter((v) => v.name.endsWith("÷ /api/v1/reports rps"));
    expect(ratios).toHaveLength(1);
    expect(ratios[0]).toMatchObject({ status: "MISSED", caveat: "unexpected statuses or errors in reports c=10" });
  });
});

describe("scenario helpers", () => {
  it("asks for one week of whole days, ending the given number of weeks before the newest day", () => {
    expect(weekBefore("2026-11-21", 0)).toEqual({ since: "2026-11-15", until: "2026-11-21" });
    expect(weekBefore("2026-03-03", 1)).toEqual({ since: "2026-02-18", until: "2026-02-24" });
  });

  it("builds malformed keys that fail the shape or checksum check", () => {
    const valid = Array.from({ length: 4 }, () => generateApiKey().secret);
    const malformed = malformedKeys(valid);
    expect(malformed).toHaveLength(4);
    for (const key of malformed) {
      expect(key).toHaveLength(valid[0]!.length);
      expect(isWellFormedApiKey(key)).toBe(false);
    }
  });

  it("reads a JSON-RPC answer sent as JSON or as a server-sent event", () => {
    const message = { jsonrpc: "2.0", id: 1, result: { structuredContent: { reports: [] } } };
    expect(parseMcpBody("application/json", JSON.stringify(message))).toEqual(message);
    expect(parseMcpBody("text/event-stream", `event: message\ndata: ${JSON.stringify(message)}\n\n`)).toEqual(message);
    expect(JSON.parse(mcpListReportsBody(7))).toEqual({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "list_reports", arguments: {} },
    });
    expect(JSON.parse(mcpListReportsBody(8, "2026-07-28")).params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    });
  });
});
