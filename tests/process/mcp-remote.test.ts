import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, MCP_ERAS, MODERN_META, textOf, type McpEra, type McpTestClient } from "../helpers/mcp-client";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-server";

// The SDK's own client against the production build over real HTTP.
const RATE_LIMIT = 20;
let t: McpTestServer;
let mcpUrl: string;

beforeAll(async () => {
  t = await startMcpTestServer({ SUNDOWN_RATE_LIMIT: String(RATE_LIMIT) });
  mcpUrl = `${t.server.url}/api/mcp`;
}, 120_000);

afterAll(async () => {
  await t?.server.stop();
});

const connect = (headers: Record<string, string>, era?: McpEra) => connectMcp(headers, mcpUrl, era);

async function rawPost(headers: Record<string, string>, body: unknown) {
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
const whoamiCall = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } };

describe.each(MCP_ERAS)("remote MCP over Streamable HTTP (next start), %s", (era) => {
  let client: McpTestClient;
  let key: string;

  beforeAll(async () => {
    key = (await t.mintKey()).key;
    client = await connect({ Authorization: `Bearer ${key}` }, era);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("serves the five tools with the same data as REST", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      "get_briefing",
      "get_report",
      "list_reports",
      "list_team",
      "whoami",
    ]);

    const me = await client.callTool({ name: "whoami", arguments: {} });
    expect(me.structuredContent).toEqual((await t.rest("/api/v1/me", key)).body);

    const reports = await client.callTool({ name: "list_reports", arguments: { limit: 5 } });
    const restReports = (await t.rest("/api/v1/reports?limit=5", key)).body;
    expect(reports.structuredContent).toEqual(restReports);

    const id = restReports.reports[0].id as string;
    const report = await client.callTool({ name: "get_report", arguments: { id } });
    expect(report.structuredContent).toEqual((await t.rest(`/api/v1/reports/${id}`, key)).body);
    expect(textOf(report)).toContain("Blockers (");

    const team = await client.callTool({ name: "list_team", arguments: {} });
    expect(team.structuredContent).toEqual((await t.rest("/api/v1/team", key)).body);

    const period = { since: "2026-11-01", until: "2026-11-28" };
    const briefing = await client.callTool({ name: "get_briefing", arguments: period });
    expect(briefing.structuredContent).toEqual(
      (await t.rest(`/api/v1/briefing?since=${period.since}&until=${period.until}`, key)).body,
    );
  });

  it("bad input is a tool error and the session carries on", async () => {
    const bad = await client.callTool({ name: "list_reports", arguments: { limit: 500 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("limit");
    const nope = await client.callTool({ name: "get_report", arguments: { id: "nope" } });
    expect(nope.isError).toBe(true);
    const ok = await client.callTool({ name: "list_reports", arguments: { limit: 1 } });
    expect(ok.isError).toBeFalsy();
  });

  it("another organization's report id is not found", async () => {
    const globex = (await t.mintKey("globex")).key;
    const id = (await t.rest("/api/v1/reports?limit=1", globex)).body.reports[0].id as string;
    const result = await client.callTool({ name: "get_report", arguments: { id } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("not_found: No report with this id exists in your organization.");
  });

  it("a key without the scope sees every tool, and the call names the scope", async () => {
    const teamOnly = await connect({ "X-API-Key": (await t.mintKey("acme", ["team:read"])).key }, era);
    try {
      expect((await teamOnly.listTools()).tools).toHaveLength(5);
      const result = await teamOnly.callTool({ name: "list_reports", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("required_scope: reports:read");
    } finally {
      await teamOnly.close();
    }
  });
});

describe("remote MCP: credentials at the HTTP layer", () => {
  it.each([
    ["no key", {}],
    ["malformed header", { Authorization: "Token abc" }],
    ["bad key", { Authorization: "Bearer sdn_sk_0000000000000000000000000000000000000000" }],
  ])("%s → 401 JSON with WWW-Authenticate: Bearer, and the SDK client cannot connect", async (_name, headers) => {
    const res = await rawPost(headers as Record<string, string>, whoamiCall);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      error: "unauthorized",
      message: expect.any(String),
      request_id: expect.any(String),
    });
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="sundown"/);
    expect(res.headers.get("www-authenticate")).not.toContain("resource_metadata");
    await expect(connect(headers as Record<string, string>)).rejects.toMatchObject({ code: 401 });
  });

  it("a revoked key is refused from the next request on, mid-session", async () => {
    const { id, key } = await t.mintKey();
    const client = await connect({ Authorization: `Bearer ${key}` });
    try {
      expect((await client.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
      await t.revokeKey(id);
      const error = await client.callTool({ name: "whoami", arguments: {} }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 401 });
      expect((error as Error).message).toContain("revoked");
    } finally {
      await client.close();
    }
  });

  it("GET and DELETE are 405 JSON with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(mcpUrl, { method, headers: { Accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ error: "method_not_allowed" });
    }
  });

  it("the server card is served at both locations, and the AI catalog points at it", async () => {
    const a = await fetch(`${t.server.url}/.well-known/mcp/server-card.json`);
    const b = await fetch(`${t.server.url}/api/mcp/server-card`);
    expect(a.status).toBe(200);
    expect(b.headers.get("content-type")).toBe("application/mcp-server-card+json");
    const card = await b.json();
    expect(card.remotes[0].url).toBe(mcpUrl);
    expect(await a.json()).toMatchObject(card);
    const catalog = await (await fetch(`${t.server.url}/.well-known/ai-catalog.json`)).json();
    expect(catalog.entries[0].url).toBe(`${mcpUrl}/server-card`);
  });
});

describe("remote MCP: one budget per key, shared with REST", () => {
  it("each MCP request counts once; past the budget MCP answers HTTP 429 with Retry-After and RateLimit headers", async () => {
    const { key } = await t.mintKey();
    const auth = { Authorization: `Bearer ${key}` };
    const half = RATE_LIMIT / 2;
    for (let i = 0; i < half; i++) expect((await t.rest("/api/v1/me", key)).status).toBe(200);
    let last: Awaited<ReturnType<typeof rawPost>> | undefined;
    for (let i = 0; i < half; i++) {
      last = await rawPost(auth, { ...whoamiCall, id: i + 1 });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get("ratelimit")).toMatch(/^"per-key";r=0;t=\d+$/);
    const refused = await rawPost(auth, whoamiCall);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "rate_limited" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toBe(`"per-key";q=${RATE_LIMIT};w=60`);
    // …and REST is refused too: the same budget.
    expect((await t.rest("/api/v1/me", key)).status).toBe(429);
  }, 120_000);

  it("a batch cannot squeeze several calls into one counted request", async () => {
    const { key } = await t.mintKey();
    const batch = Array.from({ length: 50 }, (_, i) => ({ ...whoamiCall, id: i + 1 }));
    const res = await rawPost({ Authorization: `Bearer ${key}` }, batch);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_parameter");
    expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"per-key";r=${RATE_LIMIT - 1};`));
  });

  it("a 2026-07-28 request counts against the same budget as a 2025 one", async () => {
    const { key } = await t.mintKey();
    const auth = { Authorization: `Bearer ${key}` };
    const modern = await rawPost(
      { ...auth, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "whoami" },
      { ...whoamiCall, params: { ...whoamiCall.params, _meta: MODERN_META } },
    );
    expect(modern.status).toBe(200);
    expect(modern.body.result.resultType).toBe("complete");
    expect(modern.headers.get("ratelimit")).toMatch(new RegExp(`^"per-key";r=${RATE_LIMIT - 1};`));
    const legacy = await rawPost(auth, whoamiCall);
    expect(legacy.headers.get("ratelimit")).toMatch(new RegExp(`^"per-key";r=${RATE_LIMIT - 2};`));
  });
});
