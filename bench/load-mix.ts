// The load check's mix of requests (bench/load-check.ts): every read an agent makes, in one cycle that each
// connection walks in turn. The list plain and with each filter, search and a deep cursor, one report, the
// roster plain and filtered, the key itself, and MCP's list_reports in both protocol eras. The bench's
// scenarios (bench/scenarios.ts) supply most of it, with their checks; the filters the bench does not time
// are added here.
import type { LoadRequest } from "./load-worker";
import { buildScenarios, preflight, type Scenario } from "./scenarios";
import type { BenchFixture } from "./seed";

/** The bench's scenarios taken whole; its refusals and its 1 MB report test other things than this check. */
const BENCH_SCENARIOS = new Set([
  "reports",
  "reports-week",
  "reports-member",
  "reports-search",
  "reports-page200",
  "report",
  "team",
  "me",
  "mcp-list-reports",
  "mcp-list-reports-2026",
]);

/** Answers 200 with at least one entry in `field`: a filter that matched nothing would be fast and wrong. */
function expectEntries(field: "reports" | "members") {
  return (response: Response, body: string): string | undefined => {
    if (response.status !== 200) return `status ${response.status}: ${body.slice(0, 200)}`;
    const entries = (JSON.parse(body) as Record<string, unknown[] | undefined>)[field];
    return entries && entries.length > 0 ? undefined : `no ${field} in the answer`;
  };
}

/** The filters the bench leaves out: a scope with its target, a scope alone, the roster by role and activity. */
function filterScenarios(fixture: BenchFixture): Scenario[] {
  const keys = fixture.keys;
  const get = (path: string, i: number): LoadRequest => ({
    method: "GET",
    path,
    headers: { authorization: `Bearer ${keys[i % keys.length]}` },
  });
  return [
    {
      id: "reports-scope",
      label: "GET /api/v1/reports?scope&scope_target_id",
      requests: [
        ...fixture.memberIds.map((id, i) => get(`/api/v1/reports?scope=member&scope_target_id=${id}`, i)),
        get("/api/v1/reports?scope=lead", 0),
      ],
      expect: [200],
      check: expectEntries("reports"),
    },
    {
      id: "team-filtered",
      label: "GET /api/v1/team?role&active",
      // The seed has active and inactive members with the member role, and active leads.
      requests: ["role=lead&active=true", "role=member&active=false", "role=member", "active=true"].map((query, i) =>
        get(`/api/v1/team?${query}`, i),
      ),
      expect: [200],
      check: expectEntries("members"),
    },
  ];
}

/** Round robin over the scenarios, so every stretch of the run carries every kind of request. */
function interleave(scenarios: readonly Scenario[]): LoadRequest[] {
  const longest = Math.max(...scenarios.map((s) => s.requests.length));
  const mix: LoadRequest[] = [];
  for (let i = 0; i < longest; i++) {
    for (const scenario of scenarios) {
      const request = scenario.requests[i];
      if (request) mix.push(request);
    }
  }
  return mix;
}

export interface LoadMix {
  requests: LoadRequest[];
  /** What the mix holds, one label per kind of request. */
  labels: string[];
}

/**
 * Builds the mix against a running server: walks to the deep cursor, then sends each kind of request once
 * and throws, naming every kind whose answer is wrong, before any load is spent on it.
 */
export async function prepareLoadMix(baseUrl: string, fixture: BenchFixture): Promise<LoadMix> {
  const scenarios = [...buildScenarios(fixture).filter((s) => BENCH_SCENARIOS.has(s.id)), ...filterScenarios(fixture)];
  const broken: string[] = [];
  for (const scenario of scenarios) {
    const problem = await preflight(baseUrl, scenario);
    if (problem) broken.push(`${scenario.label}: ${problem}`);
  }
  if (broken.length > 0) throw new Error(`the mix is broken before any load:\n  ${broken.join("\n  ")}`);
  return { requests: interleave(scenarios), labels: scenarios.map((s) => s.label) };
}
