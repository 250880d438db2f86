// What the bench measures. Each scenario is a cycle of pre-built requests (keys and ids rotate, so no
// single key or row is hot) plus the statuses a correct server answers with.
import type { LoadRequest } from "./load-worker";
import type { BenchFixture } from "./seed";

export interface Scenario {
  id: string;
  label: string;
  requests: LoadRequest[];
  /** Statuses a correct answer has; anything else counts as unexpected. */
  expect: number[];
  /** Checks one real response before the load, so a broken scenario is named, not just slow. */
  check(response: Response, body: string): string | undefined;
}

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

export function mcpListReportsBody(id = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_reports", arguments: {} } });
}

export function buildScenarios(fixture: BenchFixture): Scenario[] {
  const keys = fixture.keys.slice(0, ROTATION);
  const ids = fixture.reportIds.slice(0, ROTATION);
  const keyed = (path: string | ((i: number) => string)): LoadRequest[] =>
    keys.map((key, i) => ({ method: "GET", path: typeof path === "string" ? path : path(i), headers: bearer(key) }));
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
    {
      id: "mcp-list-reports",
      label: "MCP tools/call list_reports",
      requests: keys.map((key, i) => ({
        method: "POST",
        path: MCP_PATH,
        headers: {
          ...bearer(key),
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
        },
        body: mcpListReportsBody(i + 1),
      })),
      expect: [200],
      check: checkMcpListReports,
    },
  ];
}

/** Sends a scenario's first request once and returns what is wrong with the answer, if anything. */
export async function preflight(baseUrl: string, scenario: Scenario): Promise<string | undefined> {
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
