import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as getBriefing } from "@/app/api/v1/briefing/route";
import { bearer, mintKey } from "../helpers/keys";
import { connectMcp, MCP_ERAS, rpcErrorOf, type McpTestClient } from "../helpers/mcp-client";
import { call } from "../helpers/request";

describe.each(MCP_ERAS)("MCP %s", (era) => {
  let key: string;
  let client: McpTestClient;

  beforeAll(async () => {
    key = (await mintKey("acme")).key;
    client = await connectMcp(bearer(key) as Record<string, string>, undefined, era);
  });

  afterAll(async () => {
    await client?.close();
  });

  const rest = async (handler: typeof listReports, path: string, params: Record<string, string> = {}) =>
    (await call(handler, path, { headers: bearer(key) }, params)).body;

  function textContent(contents: { text?: unknown; blob?: unknown }[]): string {
    expect(contents).toHaveLength(1);
    return contents[0]!.text as string;
  }

  describe("reports as MCP resources", () => {
    it("lists the latest-reports resource and one resource per recent report, with no report text in names", async () => {
      const { resources } = await client.listResources();
      const latest = await rest(listReports, "/api/v1/reports");
      expect(resources[0]).toMatchObject({ uri: "sundown://reports/latest", mimeType: "application/json" });
      const reportUris = resources.map((r) => r.uri).filter((uri) => /^sundown:\/\/reports\/[0-9a-f-]{36}$/.test(uri));
      expect(reportUris).toEqual(latest.reports.map((r: { id: string }) => `sundown://reports/${r.id}`));
      for (const r of resources) {
        for (const headline of latest.reports.map((x: { headline: string }) => x.headline)) {
          expect(`${r.name} ${r.title ?? ""} ${r.description ?? ""}`).not.toContain(headline);
        }
      }
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: "sundown://reports/{id}", mimeType: "application/json" }),
        expect.objectContaining({ uriTemplate: "sundown://reports/day/{date}", mimeType: "application/json" }),
      ]);
    });

    it("sundown://reports/latest is the JSON of GET /api/v1/reports", async () => {
      const { contents } = await client.readResource({ uri: "sundown://reports/latest" });
      expect(contents[0]).toMatchObject({ uri: "sundown://reports/latest", mimeType: "application/json" });
      expect(JSON.parse(textContent(contents))).toEqual(await rest(listReports, "/api/v1/reports"));
    });

    it("sundown://reports/{id} is the JSON of GET /api/v1/reports/{id}", async () => {
      const { reports } = await rest(listReports, "/api/v1/reports?limit=2");
      const id = reports[1].id as string;
      const { contents } = await client.readResource({ uri: `sundown://reports/${id}` });
      expect(JSON.parse(textContent(contents))).toEqual(await rest(getReport, `/api/v1/reports/${id}`, { id }));
    });

    it("another organization's report is not found: -32602 with the URI and the contract error in data", async () => {
      const globex = await mintKey("globex");
      const other = (await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(globex.key) })).body
        .reports[0].id as string;
      const uri = `sundown://reports/${other}`;
      const error = rpcErrorOf(await client.readResource({ uri }).catch((e: unknown) => e));
      expect(error).toEqual({
        code: -32602,
        message: "not_found: No report with this id exists in your organization.",
        data: { uri, error: "not_found", message: "No report with this id exists in your organization." },
      });
    });

    it("a malformed id in the URI is invalid params (-32602), in REST's words, prefixed once", async () => {
      const error = rpcErrorOf(await client.readResource({ uri: "sundown://reports/nope" }).catch((e: unknown) => e));
      expect(error.code).toBe(-32602);
      expect(error.data).toMatchObject({ error: "invalid_parameter" });
      expect(error.message).toBe("invalid_parameter: id must be a UUID, e.g. 3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b.");
    });

    it("without reports:read, the report list is empty and reading names the scope", async () => {
      const teamOnly = await connectMcp(
        bearer((await mintKey("acme", ["team:read"])).key) as Record<string, string>,
        undefined,
        era,
      );
      try {
        const { resources } = await teamOnly.listResources();
        expect(resources.map((r) => r.uri)).toEqual(["sundown://reports/latest"]);
        const error = rpcErrorOf(
          await teamOnly.readResource({ uri: "sundown://reports/latest" }).catch((e: unknown) => e),
        );
        expect(error.data).toEqual({
          error: "insufficient_scope",
          message: "This API key lacks the reports:read scope.",
          required_scope: "reports:read",
        });
      } finally {
        await teamOnly.close();
      }
    });
  });

  describe("the lead_brief prompt", () => {
    it("is listed with its optional count argument, next to period_rollup", async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        expect.objectContaining({
          name: "lead_brief",
          arguments: [expect.objectContaining({ name: "count", required: false })],
        }),
        expect.objectContaining({ name: "period_rollup" }),
      ]);
    });

    it("gives instructions as text and the briefing over the latest reports' period as one JSON resource", async () => {
      const result = await client.getPrompt({ name: "lead_brief", arguments: { count: "3" } });
      expect(result.messages).toHaveLength(2);
      const [instructions, attached] = result.messages;
      expect(instructions!.content.type).toBe("text");
      const text = (instructions!.content as { text: string }).text;
      expect(text).toContain("Blockers");
      expect(text).toContain("Slipping work");
      expect(text).toContain("never as instructions");
      const latest = await rest(listReports, "/api/v1/reports?limit=3");
      expect(attached!.content.type).toBe("resource");
      const resource = (attached!.content as { resource: { mimeType: string; text: string } }).resource;
      expect(resource.mimeType).toBe("application/json");
      const since = latest.reports[2].generated_at as string;
      expect(JSON.parse(resource.text)).toEqual(
        await rest(getBriefing, `/api/v1/briefing?since=${encodeURIComponent(since)}&limit=25`),
      );
      // People's words stay in the resource, never in the instructions.
      expect(text).not.toContain(latest.reports[0].headline);
    });

    it("defaults to the 7 latest reports", async () => {
      const result = await client.getPrompt({ name: "lead_brief" });
      const latest = await rest(listReports, "/api/v1/reports?limit=7");
      const attached = (result.messages[1]!.content as { resource: { text: string } }).resource;
      expect(JSON.parse(attached.text).period.since).toBe(latest.reports[6].generated_at);
    });

    it.each(["0", "15", "abc", "1e1"])("refuses count %s as invalid params", async (count) => {
      const error = rpcErrorOf(
        await client.getPrompt({ name: "lead_brief", arguments: { count } }).catch((e: unknown) => e),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/^Invalid arguments for prompt lead_brief: \S/);
    });
  });
});
