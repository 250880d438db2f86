import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DELETE, GET, POST } from "@/app/api/mcp/route";

export const MCP_URL = "http://localhost:3000/api/mcp";

/** A fetch that hands every request to the exported route handlers, the way Next would. */
export const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  if (request.method === "POST") return POST(request);
  if (request.method === "DELETE") return DELETE(request);
  return GET(request);
};

/** The SDK's own client over Streamable HTTP, against the in-process route (default) or a running server's URL. */
export async function connectMcp(headers: Record<string, string>, url = MCP_URL, fetchImpl: typeof fetch | undefined = routeFetch) {
  const client = new Client({ name: "sundown-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  await client.connect(transport);
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
