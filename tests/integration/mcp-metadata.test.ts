import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as icon } from "@/app/sundown.svg/route";
import { ALL_SCOPES, bearer, mintKey } from "../helpers/keys";
import { connectMcp, MCP_ERAS, type McpTestClient } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// What an MCP client shows and reads before it calls anything: who the server is (title, website, icons), how to
// go about it (instructions), and how each tool, prompt and resource presents itself. Both eras, through the SDKs'
// own clients, as registries and hosts read them.

const BASE = "http://localhost:3000";
const ICONS = [{ src: `${BASE}/sundown.svg`, mimeType: "image/svg+xml", sizes: ["any"] }];
const TOOL_NAMES = ["whoami", "list_reports", "get_report", "get_briefing", "list_team"];

let auth: Record<string, string>;

beforeAll(async () => {
  auth = bearer((await mintKey("acme", ALL_SCOPES)).key) as Record<string, string>;
});

describe.each(MCP_ERAS)("MCP %s: the server as a client presents it", (era) => {
  let client: McpTestClient;

  beforeAll(async () => {
    client = await connectMcp(auth, undefined, era);
  });
  afterAll(() => client.close());

  it("names itself with a title, its website and an icon, all absolute from the address the client used", () => {
    expect(client.getServerVersion()).toMatchObject({
      name: "sundown",
      title: "Sundown",
      version: "1.0.0",
      description: expect.stringContaining("end-of-day reports"),
      websiteUrl: `${BASE}/docs`,
      icons: ICONS,
    });
  });

  it("says how to go about it: people from list_team, periods with since and until, then get_report", () => {
    const instructions = client.getInstructions()!;
    expect(instructions).toMatch(/list_team.*scope_target_id/);
    expect(instructions).toMatch(/since and until/);
    expect(instructions).toMatch(/list_reports.*get_report/);
    expect(instructions).toMatch(/per-minute budget, shared with the REST API/);
    expect(instructions.length).toBeLessThan(1000);
    // Every tool it names is one the server lists.
    const named = instructions.match(/\b(?:whoami|list_[a-z]+|get_[a-z]+)\b/g) ?? [];
    expect(new Set(named)).toEqual(new Set(TOOL_NAMES));
  });

  it("each tool: read-only annotations, an output schema, the icon, and words about tools, not REST paths", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.icons, tool.name).toEqual(ICONS);
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description, tool.name).toMatch(/Read-only/);
      expect(tool.description, tool.name).toMatch(/rate limit/);
      expect(JSON.stringify(tool), tool.name).not.toMatch(/\/api\/v1|GET \//);
    }
    const inputOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as any;
    expect(inputOf("list_reports").scope_target_id.description).toContain("list_team");
    expect(inputOf("list_reports").scope_target_id.examples).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(inputOf("get_report").id.description).toContain("list_reports");
  });

  it("each prompt, resource and resource template carries the icon", async () => {
    const { prompts } = await client.listPrompts();
    const { resourceTemplates } = await client.listResourceTemplates();
    const { resources } = await client.listResources();
    expect(prompts.length).toBeGreaterThan(0);
    expect(resourceTemplates.length).toBeGreaterThan(0);
    for (const item of [...prompts, ...resourceTemplates, ...resources]) expect(item.icons, item.name).toEqual(ICONS);
  });
});

describe("GET /sundown.svg", () => {
  it("serves the icon the MCP metadata points at: an SVG any origin may load, cached for a day", async () => {
    const res = await call(icon, new URL(ICONS[0]!.src).pathname, { headers: { Origin: "https://agent.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.text).not.toMatch(/<script|href=/i);
  });
});
