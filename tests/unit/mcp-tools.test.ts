import { describe, expect, it } from "vitest";
import { createRestSource } from "@/lib/api-client/rest-source";
import { ClientSettingsError, DEFAULT_SUNDOWN_URL, readClientSettings } from "@/lib/api-client/settings";
import { generateApiKey } from "@/lib/auth/api-key";
import { ApiError } from "@/lib/errors";
import { renderItem, renderReport } from "@/lib/markdown/report-text";
import { renderReportList } from "@/lib/operations/list-reports";
import { renderTeam } from "@/lib/operations/team";
import { serverCardName } from "@/lib/discovery/mcp-server-card";
import { callTool, describeToolError, TOOLS } from "@/lib/mcp/tools";

const REPORT_ID = "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b";
const REPORT = {
  id: REPORT_ID,
  scope: "org" as const,
  scope_target_id: null,
  generated_at: "2026-11-21T17:30:00.000Z",
  report: {
    headline: "Acme: 1 shipped, 1 slipping, 1 blocker",
    kpi_status: [{ name: "Pick success rate", value: 96.1, unit: "%", target: 98, status: "at_risk" }],
    shipped: [{ title: "Released fleet dashboard", owner: "Dev Patel" }],
    silent: [],
    slipping: [{ item: "gripper firmware 2.3", owner: "Aisha Khan", days_late: 3, reason: "waiting on vendor parts" }],
    blockers: [{ description: "Staging database is out of disk", owner: "Grace Kim", since_days: 2 }],
    mood: "tired",
  },
};

describe("tool definitions", () => {
  it("are the REST twins, each naming its scope in its description", () => {
    expect(TOOLS.map((t) => [t.name, t.operation.scope])).toEqual([
      ["whoami", undefined],
      ["list_reports", "reports:read"],
      ["get_report", "reports:read"],
      ["get_briefing", "reports:read"],
      ["list_team", "team:read"],
    ]);
    for (const tool of TOOLS) {
      if (tool.operation.scope) expect(tool.description).toContain(`Needs the ${tool.operation.scope} scope`);
      expect(tool.description).toMatch(/Use it|Call it/);
    }
  });
});

describe("text renderings", () => {
  it("renders one line per free-form item, label first", () => {
    expect(renderItem({ description: "Staging is out of disk", owner: "Grace", since_days: 2 })).toBe(
      "Staging is out of disk — owner: Grace, since_days: 2",
    );
    expect(renderItem({ owner: "Grace", nested: { a: 1 } })).toBe('owner: Grace, nested: {"a":1}');
    expect(renderItem({})).toBe("(empty)");
  });

  it("renders every section of a report, empty ones included, and keeps extra fields", () => {
    const text = renderReport(REPORT);
    expect(text).toContain(`Report ${REPORT_ID} · org · generated 2026-11-21T17:30:00.000Z`);
    expect(text).toContain("Blockers (1):\n- Staging database is out of disk — owner: Grace Kim, since_days: 2");
    expect(text).toContain(
      "Slipping (1):\n- gripper firmware 2.3 — owner: Aisha Khan, days_late: 3, reason: waiting on vendor parts",
    );
    expect(text).toContain("Silent (0):\n- none");
    expect(text).toContain("Other fields:\n- mood: tired");
  });

  it("renders lists with a count line", () => {
    expect(renderReportList({ reports: [], count: 0, next_cursor: null })).toBe("No reports match.");
    const list = renderReportList({
      reports: [
        { id: REPORT_ID, scope: "lead", scope_target_id: REPORT_ID, generated_at: REPORT.generated_at, headline: null },
      ],
      count: 1,
      next_cursor: null,
    });
    expect(list).toBe(
      `1 report, most recent first:\n- ${REPORT.generated_at} · lead for ${REPORT_ID} · (no headline) · id ${REPORT_ID}`,
    );
    const team = renderTeam({
      members: [
        { id: REPORT_ID, name: "Priya Raman", role: "member", department: null, is_external: true, active: false },
      ],
      count: 1,
    });
    expect(team).toBe(`1 member:\n- Priya Raman · member · no department · external, inactive · id ${REPORT_ID}`);
  });
});

describe("tool errors", () => {
  it("name the code, the message, the required scope and the retry time", () => {
    expect(
      describeToolError(
        new ApiError("insufficient_scope", "This API key lacks the team:read scope.", { requiredScope: "team:read" }),
      ),
    ).toBe(
      "insufficient_scope: This API key lacks the team:read scope. required_scope: team:read. Ask a founder or lead for a key with the team:read scope (Settings → API keys).",
    );
    expect(
      describeToolError(new ApiError("rate_limited", "Rate limit exceeded.", { headers: { "Retry-After": "7" } })),
    ).toBe("rate_limited: Rate limit exceeded. Retry after 7 seconds.");
  });

  it("hide unexpected failures behind the generic message", async () => {
    const tool = TOOLS.find((t) => t.name === "list_team")!;
    const failing = { answer: async () => Promise.reject(new Error("relation members: SELECT password FROM …")) };
    const result = await callTool(tool, failing as never, {});
    expect(result).toEqual({
      isError: true,
      content: [{ type: "text", text: "internal_error: An unexpected error occurred." }],
    });
  });

  it("whitelist output through the schema: unknown fields never leave", async () => {
    const tool = TOOLS.find((t) => t.name === "whoami")!;
    const leaky = {
      answer: async () => ({
        organization: { id: REPORT_ID, name: "Acme", slug: "acme" },
        scopes: ["team:read"],
        hashed_key: "x",
      }),
    };
    const result = await callTool(tool, leaky as never, {});
    expect(result.structuredContent).toEqual({ organization: { id: REPORT_ID, name: "Acme" }, scopes: ["team:read"] });
  });
});

describe("API client REST source (stdio server)", () => {
  const key = generateApiKey().secret;
  function source(respond: (url: string) => Response | Promise<Response>) {
    const seen: { url: string; headers: Headers }[] = [];
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers) });
      return respond(String(input));
    }) as typeof fetch;
    return { source: createRestSource({ baseUrl: "http://sundown.test", apiKey: key, fetch: fetchImpl }), seen };
  }
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

  it("calls the REST twin of each tool with the key in the Authorization header, never the URL", async () => {
    const { source: s, seen } = source((url) =>
      url.includes("/reports/") ? json(200, REPORT) : json(200, { reports: [], count: 0, next_cursor: null }),
    );
    await s.answer("list_reports", { limit: 3 });
    expect(await s.answer("get_report", { id: REPORT_ID })).toEqual(REPORT);
    expect(seen.map((r) => r.url)).toEqual([
      "http://sundown.test/api/v1/reports?limit=3",
      `http://sundown.test/api/v1/reports/${REPORT_ID}`,
    ]);
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${key}`);
    expect(seen.every((r) => !r.url.includes(key))).toBe(true);
  });

  it("turns a 403 into insufficient_scope with the required scope", async () => {
    const { source: s } = source(() =>
      json(403, {
        error: "insufficient_scope",
        message: "This API key lacks the team:read scope.",
        required_scope: "team:read",
      }),
    );
    const error = await s.answer("team", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "insufficient_scope", requiredScope: "team:read" });
  });

  it("surfaces a 429 as a tool error carrying the retry time", async () => {
    const { source: s } = source(() =>
      json(429, { error: "rate_limited", message: "Rate limit exceeded for this API key." }, { "Retry-After": "12" }),
    );
    const result = await callTool(
      TOOLS.find((t) => t.name === "list_team")!,
      s,
      {},
    );
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: "text", text: "rate_limited: Rate limit exceeded for this API key. Retry after 12 seconds." },
    ]);
  });

  it("reports an unreachable server and a non-Sundown answer plainly", async () => {
    const down = source(() => Promise.reject(new TypeError("fetch failed"))).source;
    await expect(down.answer("identity", {})).rejects.toMatchObject({
      code: "service_unavailable",
      message: expect.stringContaining("http://sundown.test"),
    });
    const html = source(() => new Response("<html>gateway</html>", { status: 502 })).source;
    await expect(html.answer("identity", {})).rejects.toMatchObject({
      code: "internal_error",
      message: "Sundown answered HTTP 502.",
    });
    const wrong = source(() => json(200, { hello: "world" })).source;
    await expect(wrong.answer("identity", {})).rejects.toMatchObject({
      code: "internal_error",
      message: expect.stringContaining("unexpected body"),
    });
  });
});

describe("API client settings (stdio server)", () => {
  const key = generateApiKey().secret;

  it("needs SUNDOWN_API_KEY and says where to get one", () => {
    expect(() => readClientSettings({})).toThrow(ClientSettingsError);
    expect(() => readClientSettings({ SUNDOWN_API_KEY: " " })).toThrow(
      /SUNDOWN_API_KEY is not set.*Settings → API keys/,
    );
  });

  it("refuses something that is not a Sundown key without calling the server", () => {
    expect(() => readClientSettings({ SUNDOWN_API_KEY: "sk_live_abc" })).toThrow(/not a Sundown API key/);
  });

  it("defaults SUNDOWN_URL to localhost:3000 and normalises it", () => {
    expect(readClientSettings({ SUNDOWN_API_KEY: key })).toEqual({ apiKey: key, baseUrl: DEFAULT_SUNDOWN_URL });
    expect(readClientSettings({ SUNDOWN_API_KEY: key, SUNDOWN_URL: "https://sundown.acme.com/" }).baseUrl).toBe(
      "https://sundown.acme.com",
    );
    expect(() => readClientSettings({ SUNDOWN_API_KEY: key, SUNDOWN_URL: "localhost:3000" })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() => readClientSettings({ SUNDOWN_API_KEY: key, SUNDOWN_URL: "not a url" })).toThrow(/not a URL/);
  });
});

describe("server card name", () => {
  it("is the reverse-DNS host, or the host itself for addresses and single labels", () => {
    expect(serverCardName("https://sundown.acme.com")).toBe("com.acme.sundown/sundown");
    expect(serverCardName("http://localhost:3000")).toBe("localhost/sundown");
    expect(serverCardName("http://127.0.0.1:4000")).toBe("127.0.0.1/sundown");
  });
});

describe("server-side failures", () => {
  it("reach the onError hook from tools, resources and the prompt, and reveal nothing to the client", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const { createSundownServer } = await import("@/lib/mcp/server");
    const broken = async (): Promise<never> => {
      throw new Error("connection to 10.0.0.7:5432 refused by pg_hba.conf");
    };
    const seen: [string, string][] = [];
    const server = createSundownServer(
      { answer: broken },
      { base: "http://localhost:3000", hooks: { onError: (primitive, error) => seen.push([primitive, error.code]) } },
    );
    const client = new Client({ name: "unit", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const tool = await client.callTool({ name: "list_team", arguments: {} });
      expect(tool).toMatchObject({
        isError: true,
        content: [{ type: "text", text: "internal_error: An unexpected error occurred." }],
      });
      const read = await client.readResource({ uri: "sundown://reports/latest" }).catch((e: Error) => e);
      expect((read as Error).message).toContain("internal_error: An unexpected error occurred.");
      expect((read as Error).message).not.toContain("pg_hba");
      await expect(client.getPrompt({ name: "lead_brief" })).rejects.toThrow("internal_error");
      expect(seen).toEqual([
        ["list_team", "internal_error"],
        ["sundown://reports/latest", "internal_error"],
        ["lead_brief", "internal_error"],
      ]);
    } finally {
      await client.close();
    }
  });
});
