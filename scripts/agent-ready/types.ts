// What the scorers read and what they return. The runner (observe.ts) fetches a site over HTTP and MCP the way
// a scanner does and fills an Observation; each yardstick is a pure function of it, so a unit test can hand one
// a crafted observation and watch a single check fail.

/** One HTTP answer as a scanner keeps it: status, headers (lower-case names) and body text. */
export interface HttpSnapshot {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A tool, prompt or resource as tools/list, prompts/list and resources/list answer it (the fields scored). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  annotations?: Record<string, unknown>;
}

export interface McpListing {
  serverInfo: { name?: string; title?: string; description?: string; websiteUrl?: string; icons?: unknown[] };
  instructions?: string;
  tools: McpTool[];
  prompts: { name: string; description?: string }[];
  resources: { uri: string; name?: string; description?: string }[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- scanned JSON is whatever the server sent
export type JsonObject = Record<string, any>;

export interface Observation {
  /** GET / as a browser asks for it. */
  home: HttpSnapshot;
  /** GET / with Accept: text/markdown. */
  homeMarkdown: HttpSnapshot;
  /** GET /robots.txt, /sitemap.xml and each /.well-known/ path a scanner probes, by path. */
  documents: Record<string, HttpSnapshot>;
  /** GET /openapi.json, parsed; undefined when it is missing or not JSON. */
  openapi: JsonObject | undefined;
  /** The MCP server as the SDK's client sees it with a key; an error message when it could not connect. */
  mcp: McpListing | { error: string };
}

export interface CheckResult {
  name: string;
  /** "neutral": reported but not scored, as the scanner does for checks that do not apply. */
  outcome: "pass" | "fail" | "neutral";
  reason: string;
}

export interface YardstickScore {
  yardstick: string;
  score: number;
  max: number;
  /** What the score means on the yardstick's own scale, e.g. "Level 4 (Agent-Integrated)". */
  verdict: string;
  checks: CheckResult[];
}

/** A check that passes with one reason or fails with the other. */
export function check(name: string, ok: boolean, passed: string, failed: string): CheckResult {
  return ok ? { name, outcome: "pass", reason: passed } : { name, outcome: "fail", reason: failed };
}
