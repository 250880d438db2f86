// What the bench measures. Each scenario is a cycle of pre-built requests (keys and ids rotate, so no
// single key or row is hot) plus the statuses a correct server answers with.
import { MCP_ERAS, toolCallBody, toolCallHeaders, type McpEra } from "../tests/helpers/mcp-client";
import type { LoadRequest } from "./load-worker";
import type { BenchFixture } from "./seed";

export interface Scenario {
  id: string;
  label: string;
  requests: LoadRequest[];
  /** Sent to the anchor (bench/anchor, a bare Next.js route doing the keyed list's work) instead of Sundown. */
  anchor?: true;
  /** The concurrencies it is measured at, of those the run asks for; every one when absent. */
  concurrency?: readonly number[];
  /**
   * Builds the requests from the server's answers before the preflight (a cursor has to be walked to);
   * throws what went wrong.
   */
  prepare?(baseUrl: string): Promise<LoadRequest[]>;
  /** Statuses a correct answer has; anything else counts as unexpected. */
  expect: number[];
  /** Checks one real response before the load, so a broken scenario is named, not just slow. */
  check(response: Response, body: string): string | undefined;
}

export const ANCHOR_SCENARIO = "anchor-reports";

/** How many keys and ids each scenario cycles through. */
const ROTATION = 16;

const MCP_PATH = "/api/mcp";

function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/**
 * Keys with the right prefix and length whose checksum is wrong or whose characters are not base62:
 * the service must refuse them from their shape alone, without a database lookup.
 */
export function malformedKeys(validKeys: readonly string[]): string[] {
  return validKeys.slice(0, ROTATION).map((key, i) => {
    if (i % 2 === 0) {
      const last = key.at(-1)!;
      return key.slice(0, -1) + (last === "A" ? "B" : "A");
    }
    return `${key.slice(0, -3)}-_!`;
  });
}

function expectStatus(expected: number[]) {
  return (response: Response): string | undefined =>
    expected.includes(response.status) ? undefined : `status ${response.status}, expected ${expected.join(" or ")}`;
}

/** The JSON-RPC message of a Streamable HTTP answer, sent as JSON or as one SSE event. */
export function parseMcpBody(contentType: string | null, body: string): unknown {
  if (contentType?.includes("text/event-stream")) {
    const data = body
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trim());
    return data.length > 0 ? JSON.parse(data.at(-1)!) : undefined;
  }
  return JSON.parse(body);
}

function checkMcpListReports(response: Response, body: string): string | undefined {
  if (response.status !== 200) return `status ${response.status}: ${body.slice(0, 200)}`;
  try {
    const message = parseMcpBody(response.headers.get("content-type"), body) as {
      error?: { message?: string };
      result?: { isError?: boolean; structuredContent?: { reports?: unknown[] } };
    };
    if (message?.error) return `JSON-RPC error: ${message.error.message ?? "unknown"}`;
    if (message?.result?.isError) return `tool error: ${body.slice(0, 200)}`;
    if (!Array.isArray(message?.result?.structuredContent?.reports))
      return "no structuredContent.reports in the result";
    return undefined;
  } catch (error) {
    return `unreadable body (${(error as Error).message}): ${body.slice(0, 200)}`;
  }
}

/** A tools/call of list_reports without arguments; in the 2026-07-28 era with the envelope each request carries. */
export function mcpListReportsBody(id = 1, era: McpEra = "2025-11-25"): string {
  return toolCallBody(era, "list_reports", {}, id);
}

/** The list's page size without `limit`. */
const PAGE = 14;
/** The page of an unfiltered walk the deep-page point asks for. */
const DEEP_PAGE = 200;

/** Answers 200 with a full page of reports: a filter that matched nothing would be fast and wrong. */
function checkFullPage(response: Response, body: string): string | undefined {
  if (response.status !== 200) return `status ${response.status}: ${body.slice(0, 200)}`;
  const count = (JSON.parse(body) as { reports?: unknown[] }).reports?.length;
  return count === PAGE ? undefined : `${count ?? "no"} reports, expected a full page of ${PAGE}`;
}

/** Answers 200 with a briefing whose period held reports: an empty period would be fast and wrong. */
function checkBriefing(response: Response, body: string): string | undefined {
  if (response.status !== 200) return `status ${response.status}: ${body.slice(0, 200)}`;
  const { period } = JSON.parse(body) as { period?: { reports?: number } };
  return period?.reports ? undefined : `a briefing of ${period?.reports ?? "no"} reports`;
}

/** Thirty whole UTC days ending with the history's newest day (the bench organization counts its days in UTC). */
function lastThirtyDays(newestDay: string): { since: string; until: string } {
  const since = new Date(Date.parse(`${newestDay}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  return { since, until: newestDay };
}

/** One week of whole UTC days, `weeksBack` weeks before the history's newest day: since its first, until its last. */
export function weekBefore(newestDay: string, weeksBack: number): { since: string; until: string } {
  const day = (offset: number) =>
    new Date(Date.parse(`${newestDay}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);
  return { since: day(7 * weeksBack + 6), until: day(7 * weeksBack) };
}

/**
 * Walks the unfiltered list a page at a time with `key` and returns the cursor of page `page`, checking on the
 * way that every page is full and no report comes twice.
 */
async function cursorOfPage(baseUrl: string, key: string, page: number): Promise<string> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let n = 1; n < page; n++) {
    const query: string = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${baseUrl}/api/v1/reports${query}`, { headers: bearer(key) });
    const body = (await response.json()) as { reports?: { id: string }[]; next_cursor?: string | null };
    if (response.status !== 200) throw new Error(`page ${n} answered ${response.status}: ${JSON.stringify(body)}`);
    for (const report of body.reports ?? []) seen.add(report.id);
    if (body.reports?.length !== PAGE || !body.next_cursor) {
      throw new Error(`page ${n} had ${body.reports?.length} reports and next_cursor ${body.next_cursor}`);
    }
    cursor = body.next_cursor;
  }
  if (seen.size !== (page - 1) * PAGE) throw new Error(`${(page - 1) * PAGE} reports walked, ${seen.size} distinct`);
  return cursor ?? "";
}

export function buildScenarios(fixture: BenchFixture): Scenario[] {
  const keys = fixture.keys.slice(0, ROTATION);
  const ids = fixture.reportIds.slice(0, ROTATION);
  const keyed = (path: string | ((i: number) => string)): LoadRequest[] =>
    keys.map((key, i) => ({ method: "GET", path: typeof path === "string" ? path : path(i), headers: bearer(key) }));
  const list = (query: (i: number) => Record<string, string>) =>
    keyed((i) => `/api/v1/reports?${new URLSearchParams(query(i)).toString()}`);
  // The history points: filtered and deep pages of 100,000 reports, at c=10 as the issue sets them.
  const history = { expect: [200], check: checkFullPage, concurrency: [10] };
  return [
    {
      id: "root",
      label: "GET /api/v1 (public)",
      requests: [{ method: "GET", path: "/api/v1", headers: {} }],
      expect: [200],
      check: expectStatus([200]),
    },
    {
      id: "reports",
      label: "GET /api/v1/reports",
      requests: keyed("/api/v1/reports"),
      expect: [200],
      check: expectStatus([200]),
    },
    {
      // The same requests, answered by a bare Next.js route doing the same work: the ratio the budget is set in.
      id: ANCHOR_SCENARIO,
      label: "anchor: bare Next.js route, same keyed list",
      anchor: true,
      requests: keyed("/api/v1/reports"),
      expect: [200],
      check: checkFullPage,
    },
    {
      id: "report",
      label: "GET /api/v1/reports/{id}",
      requests: keyed((i) => `/api/v1/reports/${ids[i % ids.length]}`),
      expect: [200],
      check: expectStatus([200]),
    },
    {
      id: "report-1mb",
      label: "GET /api/v1/reports/{id} (1 MB unbroken string)",
      requests: keyed(`/api/v1/reports/${fixture.longStringReportId}`),
      expect: [200],
      check: expectStatus([200]),
    },
    {
      id: "team",
      label: "GET /api/v1/team",
      requests: keyed("/api/v1/team"),
      expect: [200],
      check: expectStatus([200]),
    },
    { id: "me", label: "GET /api/v1/me", requests: keyed("/api/v1/me"), expect: [200], check: expectStatus([200]) },
    {
      id: "me-malformed",
      label: "GET /api/v1/me (malformed key)",
      requests: malformedKeys(fixture.keys).map((key) => ({ method: "GET", path: "/api/v1/me", headers: bearer(key) })),
      // The bench raises the per-address limit on failed keys too, so every refusal takes the full
      // 401 path (shape check, address counted), never the cheaper 429 short cut.
      expect: [401],
      check: expectStatus([401]),
    },
    // MCP's list in each era, from Sundown and from the anchor (its MCP route: the SDK as documented, same list).
    ...MCP_ERAS.flatMap((era) =>
      [false, true].map((anchor): Scenario => ({
        id: `${anchor ? "anchor-" : ""}mcp-list-reports${era === "2026-07-28" ? "-2026" : ""}`,
        label: `${anchor ? "anchor: " : ""}MCP tools/call list_reports (${era})`,
        ...(anchor ? { anchor: true as const } : {}),
        requests: keys.map((key, i) => ({
          method: "POST",
          path: MCP_PATH,
          headers: { ...bearer(key), ...toolCallHeaders(era, "list_reports") },
          body: mcpListReportsBody(i + 1, era),
        })),
        expect: [200],
        check: checkMcpListReports,
      })),
    ),
    {
      id: "reports-week",
      label: "GET /api/v1/reports?since&until (one week)",
      // Sixteen weeks spread over the two years, one per key.
      requests: list((i) => weekBefore(fixture.newestDay, 1 + i * 6)),
      ...history,
    },
    {
      id: "reports-member",
      label: "GET /api/v1/reports?scope_target_id (one member)",
      requests: list((i) => ({ scope_target_id: fixture.memberIds[i % fixture.memberIds.length]! })),
      ...history,
    },
    {
      id: "reports-search",
      label: "GET /api/v1/reports?q (common word)",
      requests: list(() => ({ q: fixture.commonWord.word })),
      ...history,
    },
    {
      // Issue 39: the briefing over 30 days of the history, from the extracted items; budget 2× the plain first page's CPU.
      id: "briefing-30d",
      label: "GET /api/v1/briefing?since&until (30 days)",
      requests: keyed(`/api/v1/briefing?${new URLSearchParams(lastThirtyDays(fixture.newestDay)).toString()}`),
      expect: [200],
      check: checkBriefing,
      concurrency: [10],
    },
    {
      // Issue 39: a first page of 14 whole reports; budget 3× the plain first page's CPU.
      id: "reports-expand",
      label: "GET /api/v1/reports?expand=report (page of 14)",
      requests: list(() => ({ expand: "report" })),
      ...history,
    },
    {
      id: "reports-page200",
      label: `GET /api/v1/reports?cursor (page ${DEEP_PAGE})`,
      // Replaced by the page's cursor in the preflight; the same for every key of the organization.
      requests: keyed("/api/v1/reports"),
      async prepare(baseUrl) {
        const cursor = await cursorOfPage(baseUrl, keys[0]!, DEEP_PAGE);
        return list(() => ({ cursor }));
      },
      ...history,
    },
  ];
}

/**
 * Prepares a scenario's requests where it must, then sends its first request once and returns what is wrong
 * with the answer, if anything.
 */
export async function preflight(baseUrl: string, scenario: Scenario): Promise<string | undefined> {
  try {
    if (scenario.prepare) scenario.requests = await scenario.prepare(baseUrl);
  } catch (error) {
    return `preparing failed: ${(error as Error).message}`;
  }
  const request = scenario.requests[0]!;
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    return scenario.check(response, await response.text());
  } catch (error) {
    return `request failed: ${(error as Error).message}`;
  }
}
