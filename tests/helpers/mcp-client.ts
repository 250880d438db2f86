import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const MCP_URL = "http://localhost:3000/api/mcp";

/** A fetch that hands every request to the exported route handlers, the way Next would. */
export const routeFetch: typeof fetch = async (input, init) => {
  // Imported on first use, so process tests that talk to a real server never load the route (or open a database).
  const { DELETE, GET, POST } = await import("@/app/api/mcp/route");
  const request = new Request(input, init);
  if (request.method === "POST") return POST(request);
  if (request.method === "DELETE") return DELETE(request);
  return GET(request);
};

/**
 * The SDK's own client over Streamable HTTP: against the in-process route by default, or over the network
 * when given a running server's URL.
 */
export async function connectMcp(headers: Record<string, string>, serverUrl?: string) {
  const client = new Client({ name: "sundown-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl ?? MCP_URL), {
    requestInit: { headers },
    fetch: serverUrl ? fetch : routeFetch,
  });
  await client.connect(transport);
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
