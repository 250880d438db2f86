import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { PROVENANCE_LINE } from "@/lib/mcp/provenance";
import { bearer, mintKey } from "../helpers/keys";
import { connectMcp, MCP_ERAS, textOf, type McpTestClient } from "../helpers/mcp-client";
import { call } from "../helpers/request";

describe.each(MCP_ERAS)("MCP %s", (era) => {
  let acme: Awaited<ReturnType<typeof mintKey>>;
  let client: McpTestClient;

  beforeAll(async () => {
    acme = await mintKey("acme");
    client = await connectMcp(bearer(acme.key) as Record<string, string>, undefined, era);
  });

  afterAll(async () => {
    await client?.close();
  });

  const rest = async (handler: typeof getMe, path: string, params: Record<string, string> = {}) => {
    const res = await call(handler, path, { headers: bearer(acme.key) }, params);
    expect(res.status).toBe(200);
    return res.body;
  };

  describe("MCP tools over Streamable HTTP (in-process)", () => {
    it("lists the five read-only tools with titles, descriptions and the REST schemas", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "get_briefing",
        "get_report",
        "list_reports",
        "list_team",
        "whoami",
      ]);
      for (const tool of tools) {
        expect(tool.title).toBeTruthy();
        expect(tool.description!.length).toBeGreaterThan(80);
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.outputSchema?.type).toBe("object");
      }
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.list_reports!.inputSchema.properties!.limit).toMatchObject({
        type: "integer",
        minimum: 1,
        maximum: 50,
        default: 14,
      });
      expect(byName.list_reports!.inputSchema.required ?? []).toEqual([]);
      expect(byName.get_report!.inputSchema.properties!.id).toMatchObject({ type: "string", format: "uuid" });
      expect(byName.get_report!.inputSchema.required).toEqual(["id"]);
      expect(byName.get_report!.description).toContain("reports:read");
      expect(byName.list_team!.description).toContain("team:read");
      expect(Object.keys(byName.list_team!.outputSchema!.properties!).sort()).toEqual(["count", "members"]);
    });

    it("whoami returns exactly what GET /api/v1/me returns, plus a text rendering", async () => {
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(await rest(getMe, "/api/v1/me"));
      expect(textOf(result)).toContain("Acme Robotics");
      expect(textOf(result)).toContain("reports:read, team:read");
    });

    it("list_reports defaults to 14 and matches GET /api/v1/reports; limit is honoured", async () => {
      const result = await client.callTool({ name: "list_reports", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(await rest(listReports, "/api/v1/reports"));
      expect((result.structuredContent as { count: number }).count).toBe(14);
      // The provenance line, a blank line, then the rendering.
      expect(textOf(result).split("\n").slice(0, 3)).toEqual([PROVENANCE_LINE, "", "14 reports, most recent first:"]);

      const three = await client.callTool({ name: "list_reports", arguments: { limit: 3 } });
      expect(three.structuredContent).toEqual(await rest(listReports, "/api/v1/reports?limit=3"));
      const lines = textOf(three).split("\n").slice(2);
      expect(lines).toHaveLength(5);
      expect(lines[4]).toBe(
        `More reports follow: call list_reports again with the same filters and cursor: ${(three.structuredContent as { next_cursor: string }).next_cursor}`,
      );
    });

    it("get_report matches GET /api/v1/reports/{id}, and the text carries every section", async () => {
      const list = await rest(listReports, "/api/v1/reports?limit=1");
      const id = list.reports[0].id as string;
      const result = await client.callTool({ name: "get_report", arguments: { id } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(await rest(getReport, `/api/v1/reports/${id}`, { id }));
      const text = textOf(result);
      for (const section of ["Headline:", "Blockers (", "Slipping (", "Silent (", "Shipped (", "KPI status ("])
        expect(text).toContain(section);
    });

    it("get_report accepts an upper-case id, as REST does", async () => {
      const list = await rest(listReports, "/api/v1/reports?limit=1");
      const id = list.reports[0].id as string;
      const result = await client.callTool({ name: "get_report", arguments: { id: id.toUpperCase() } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { id: string }).id).toBe(id);
    });

    it("list_team matches GET /api/v1/team and never shows contact details", async () => {
      const result = await client.callTool({ name: "list_team", arguments: {} });
      expect(result.structuredContent).toEqual(await rest(listTeam, "/api/v1/team"));
      const everything = JSON.stringify(result);
      expect(everything).not.toMatch(/@acme\.example|"email"|chat_?handle|slack/i);
      expect(textOf(result)).toContain("Maya Chen · founder");
    });

    it("no report output, structured or text, contains contact details", async () => {
      const { reports } = await rest(listReports, "/api/v1/reports?limit=50");
      const results = await Promise.all(
        reports
          .slice(0, 20)
          .map((r: { id: string }) => client.callTool({ name: "get_report", arguments: { id: r.id } })),
      );
      for (const result of results) {
        expect(JSON.stringify(result)).not.toMatch(/@acme\.example|"email"|"slack_id"/);
      }
    });
  });

  describe("MCP tool arguments are parsed like REST parameters: same input, same answer, same message", () => {
    const cases: { name: string; tool: string; args: Record<string, unknown>; rest: () => ReturnType<typeof call> }[] =
      [
        {
          name: "limit 500",
          tool: "list_reports",
          args: { limit: 500 },
          rest: () => call(listReports, "/api/v1/reports?limit=500", { headers: bearer(acme.key) }),
        },
        {
          name: "limit 0",
          tool: "list_reports",
          args: { limit: 0 },
          rest: () => call(listReports, "/api/v1/reports?limit=0", { headers: bearer(acme.key) }),
        },
        {
          name: "limit 2.5",
          tool: "list_reports",
          args: { limit: 2.5 },
          rest: () => call(listReports, "/api/v1/reports?limit=2.5", { headers: bearer(acme.key) }),
        },
        {
          name: 'id "nope"',
          tool: "get_report",
          args: { id: "nope" },
          rest: () => call(getReport, "/api/v1/reports/nope", { headers: bearer(acme.key) }, { id: "nope" }),
        },
        {
          name: "an 8-4-4-4-12 id with no UUID version bits (unknown, not malformed)",
          tool: "get_report",
          args: { id: "12345678-1234-1234-1234-123456789012" },
          rest: () =>
            call(
              getReport,
              "/api/v1/reports/12345678-1234-1234-1234-123456789012",
              { headers: bearer(acme.key) },
              { id: "12345678-1234-1234-1234-123456789012" },
            ),
        },
      ];

    it.each(cases)("$name → the tool error is REST's code and message", async ({ tool, args, rest }) => {
      const [result, restAnswer] = await Promise.all([client.callTool({ name: tool, arguments: args }), rest()]);
      expect(restAnswer.status).toBeGreaterThanOrEqual(400);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`${restAnswer.body.error}: ${restAnswer.body.message}`);
    });

    it.each([
      {
        name: "limit as a string",
        tool: "list_reports",
        args: { limit: "5" },
        text: "invalid_parameter: limit must be an integer from 1 to 50 (default 14).",
      },
      {
        name: "id missing",
        tool: "get_report",
        args: {},
        text: "invalid_parameter: id must be a UUID, e.g. 3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b.",
      },
      {
        name: "id a number",
        tool: "get_report",
        args: { id: 42 },
        text: "invalid_parameter: id must be a UUID, e.g. 3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b.",
      },
    ])("$name → $text", async ({ tool, args, text }) => {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(text);
    });
  });

  describe("MCP tool arguments a tool does not define are refused, naming them and the tool's own", () => {
    it("publishes every input schema closed: additionalProperties false, also for whoami's empty one", async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tools.find((t) => t.name === "whoami")!.inputSchema).toMatchObject({
        type: "object",
        properties: {},
        additionalProperties: false,
      });
    });

    it.each([
      {
        tool: "list_reports",
        args: { member_id: "00000000-0000-4000-8000-000000000000" },
        text: "invalid_parameter: Unknown parameter member_id: list_reports takes limit, since, until, scope, scope_target_id, q, cursor, expand.",
      },
      {
        tool: "list_reports",
        args: { limit: 3, Scope: "lead" },
        text: "invalid_parameter: Unknown parameter Scope: list_reports takes limit, since, until, scope, scope_target_id, q, cursor, expand.",
      },
      {
        tool: "get_report",
        args: { id: "00000000-0000-4000-8000-000000000000", format: "markdown" },
        text: "invalid_parameter: Unknown parameter format: get_report takes id.",
      },
      {
        tool: "list_team",
        args: { roles: "lead" },
        text: "invalid_parameter: Unknown parameter roles: list_team takes role, active.",
      },
      {
        tool: "whoami",
        args: { verbose: true },
        text: "invalid_parameter: Unknown parameter verbose: whoami takes no parameters.",
      },
    ])("$tool $args → isError: $text", async ({ tool, args, text }) => {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toBe(text);
    });

    it('list_team takes active as a JSON boolean or as the string "true"/"false", as REST takes ?active=', async () => {
      for (const [argument, text] of [
        [true, "true"],
        ["true", "true"],
        ["false", "false"],
      ] as const) {
        const result = await client.callTool({ name: "list_team", arguments: { active: argument } });
        expect(result.isError, JSON.stringify(argument)).toBeFalsy();
        expect(result.structuredContent).toEqual(await rest(listTeam, `/api/v1/team?active=${text}`));
      }
      const refused = await client.callTool({ name: "list_team", arguments: { active: "yes" } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe("invalid_parameter: active must be true or false.");
    });

    it("the request's _meta is no argument: the 2026-07-28 client sends one with every call", async () => {
      const result = await client.callTool({ name: "list_reports", arguments: { limit: 1 }, _meta: { trace: "t-1" } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { count: number }).count).toBe(1);
    });
  });

  describe("MCP tool errors leave the server usable", () => {
    const cases: { name: string; tool: string; args: Record<string, unknown>; mentions: RegExp }[] = [
      { name: "limit 500", tool: "list_reports", args: { limit: 500 }, mentions: /limit/ },
      { name: "limit 0", tool: "list_reports", args: { limit: 0 }, mentions: /limit/ },
      { name: "limit 2.5", tool: "list_reports", args: { limit: 2.5 }, mentions: /limit/ },
      { name: "limit as a string", tool: "list_reports", args: { limit: "5" }, mentions: /limit/ },
      { name: 'id "nope"', tool: "get_report", args: { id: "nope" }, mentions: /id/ },
      { name: "id missing", tool: "get_report", args: {}, mentions: /id/ },
      { name: "id a number", tool: "get_report", args: { id: 42 }, mentions: /id/ },
    ];

    it.each(cases)("$name → isError naming the argument", async ({ tool, args, mentions }) => {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toMatch(mentions);
      const after = await client.callTool({ name: "whoami", arguments: {} });
      expect(after.isError).toBeFalsy();
    });

    it("an unknown report id is a not_found tool error", async () => {
      const result = await client.callTool({
        name: "get_report",
        arguments: { id: "00000000-0000-4000-8000-000000000000" },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("not_found: No report with this id exists in your organization.");
    });

    it("another organization's report id is exactly as unknown as a random one", async () => {
      const globex = await mintKey("globex");
      const globexReports = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(globex.key) });
      const id = globexReports.body.reports[0].id as string;
      const result = await client.callTool({ name: "get_report", arguments: { id } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("not_found: No report with this id exists in your organization.");
    });

    // Since 2025-11-25 (SEP-1303) an unknown tool is a protocol error, -32602, while a known tool's invalid
    // arguments are a tool error the model can correct (above); the server stays usable either way.
    it("an unknown tool is JSON-RPC's -32602 naming it, not a tool result", async () => {
      await expect(client.callTool({ name: "delete_report", arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("delete_report"),
      });
      expect((await client.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
    });
  });

  describe("MCP scopes: every tool is listed, a call without its scope is a tool error naming the scope", () => {
    const cases = [
      { granted: ["team:read"] as const, tool: "list_reports", args: {}, required: "reports:read" },
      {
        granted: ["team:read"] as const,
        tool: "get_report",
        args: { id: "00000000-0000-4000-8000-000000000000" },
        required: "reports:read",
      },
      { granted: ["team:read"] as const, tool: "get_briefing", args: {}, required: "reports:read" },
      { granted: ["reports:read"] as const, tool: "list_team", args: {}, required: "team:read" },
    ];

    it.each(cases)(
      "$tool with only $granted → insufficient_scope naming $required",
      async ({ granted, tool, args, required }) => {
        const { key } = await mintKey("acme", [...granted]);
        const scoped = await connectMcp(bearer(key) as Record<string, string>, undefined, era);
        try {
          const { tools } = await scoped.listTools();
          expect(tools).toHaveLength(5);
          const result = await scoped.callTool({ name: tool, arguments: args });
          expect(result.isError).toBe(true);
          expect(textOf(result)).toContain("insufficient_scope");
          expect(textOf(result)).toContain(`required_scope: ${required}`);
          const whoami = await scoped.callTool({ name: "whoami", arguments: {} });
          expect(whoami.structuredContent).toEqual({
            organization: { id: acme.organization.id, name: "Acme Robotics" },
            scopes: [...granted],
          });
        } finally {
          await scoped.close();
        }
      },
    );

    // The contract's order, as REST keeps it (rest-security.test.ts): a key without the scope learns nothing
    // about its arguments either.
    it.each(cases)(
      "$tool with only $granted and arguments it refuses → still insufficient_scope: scope before parameters",
      async ({ granted, tool, required }) => {
        const { key } = await mintKey("acme", [...granted]);
        const scoped = await connectMcp(bearer(key) as Record<string, string>, undefined, era);
        try {
          const result = await scoped.callTool({ name: tool, arguments: { limit: 0, id: "nope", colour: "red" } });
          expect(result.isError).toBe(true);
          expect(textOf(result)).toContain(`required_scope: ${required}`);
          expect(textOf(result)).not.toContain("invalid_parameter");
        } finally {
          await scoped.close();
        }
      },
    );
  });
});
