import { describe, expect, it } from "vitest";
import { createSundownServer } from "@/lib/mcp/server";
import type { SundownSource } from "@/lib/mcp/source";

// The remote route hands the SDK's 2026-07-28 handler the protocol-level Server, not the McpServer
// (lib/mcp/serve.ts), which skips two of the handler's checks before dispatch: the tool's `x-mcp-header`
// declarations (SEP-2243: arguments a client must mirror in Mcp-Param-* headers) and the primitive's scope
// challenge. That is only the same answer while no primitive declares either; this holds it so.

// Resource listing asks for the newest reports; no primitive's data is read otherwise.
const noReports = {
  answer: async (name: string) => {
    if (name === "list_reports") return { reports: [], next_cursor: null };
    throw new Error(`${name} is not read here`);
  },
} as unknown as SundownSource;

async function listedPrimitives() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
  const server = createSundownServer(noReports, { base: "http://localhost:3000" });
  const client = new Client({ name: "unit", version: "1.0.0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  try {
    const { tools } = await client.listTools();
    const { prompts } = await client.listPrompts();
    const { resources } = await client.listResources();
    const { resourceTemplates } = await client.listResourceTemplates();
    return { server, tools, prompts, resources, resourceTemplates };
  } finally {
    await client.close();
  }
}

/** Every key of a JSON value, however deep. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe("MCP primitives, as the 2026-07-28 handler would check them", () => {
  it("declare no x-mcp-header argument in any tool's input schema", async () => {
    const { server, tools } = await listedPrimitives();
    expect(tools.map((tool) => tool.name)).toEqual([
      "whoami",
      "list_reports",
      "get_report",
      "get_briefing",
      "list_team",
    ]);
    for (const tool of tools) {
      expect(keysOf(tool.inputSchema), tool.name).not.toContain("x-mcp-header");
      // What the handler itself would scan: the schema as the McpServer converts it for a call.
      expect(keysOf(server.toolInputSchemaJson(tool.name)), tool.name).not.toContain("x-mcp-header");
    }
  });

  it("raise no scope challenge for any tool, prompt or resource", async () => {
    const { server, tools, prompts, resources, resourceTemplates } = await listedPrimitives();
    const requests = [
      ...tools.map((tool) => ({ method: "tools/call", params: { name: tool.name, arguments: {} } })),
      ...prompts.map((prompt) => ({ method: "prompts/get", params: { name: prompt.name } })),
      ...resources.map((resource) => ({ method: "resources/read", params: { uri: resource.uri } })),
      ...resourceTemplates.map((template) => ({
        method: "resources/read",
        params: { uri: template.uriTemplate.replace(/\{[^}]+\}/g, "2026-11-16") },
      })),
    ];
    expect(prompts.length).toBeGreaterThan(0);
    expect(resourceTemplates.length).toBeGreaterThan(0);
    for (const request of requests) {
      const challenge = await server.resolveScopeChallenge({
        request: { jsonrpc: "2.0", id: 1, ...request },
      } as Parameters<typeof server.resolveScopeChallenge>[0]);
      expect(challenge, JSON.stringify(request)).toBeUndefined();
    }
  });
});
