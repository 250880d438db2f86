import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const MCP_URL = "http://localhost:3000/api/mcp";

/**
 * The two protocol eras Sundown serves, each spoken by the client its users run: the v1 SDK
 * (`@modelcontextprotocol/sdk`, initialize, 2025-11-25) and the v2 SDK pinned to 2026-07-28 (server/discover,
 * `_meta` on every request, Mcp-Method/Mcp-Name headers). A pin never falls back, so a test on the modern
 * era cannot pass on the legacy path by accident.
 */
export const MCP_ERAS = ["2025-11-25", "2026-07-28"] as const;
export type McpEra = (typeof MCP_ERAS)[number];

/** The envelope every 2026-07-28 request carries in `params._meta`, for tests that write the wire by hand. */
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** The headers of a `tools/call` of tool `name` as a client of `era` sends them: Mcp-Method/Mcp-Name on 2026-07-28. */
export function toolCallHeaders(era: McpEra, name: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(era === "2026-07-28" ? { "MCP-Protocol-Version": era, "Mcp-Method": "tools/call", "Mcp-Name": name } : {}),
  };
}

/** The JSON-RPC body of a `tools/call` as a client of `era` writes it: with the `_meta` envelope on 2026-07-28. */
export function toolCallBody(era: McpEra, name: string, args: Record<string, unknown>, id = 1): string {
  const meta = era === "2026-07-28" ? { _meta: MODERN_META } : {};
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...meta } });
}

/** A `tools/call` written by hand as a client of `era` sends it, for tests and benches that read the wire. */
export function toolCallInit(
  era: McpEra,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
): RequestInit {
  return {
    method: "POST",
    headers: { ...headers, ...toolCallHeaders(era, name) },
    body: toolCallBody(era, name, args),
  };
}

/**
 * Both clients have the same method surface (listTools, callTool, readResource, getPrompt, complete…); tests
 * call it through the v1 type. What differs on the wire is what the tests are for.
 */
export type McpTestClient = Client;

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
 * when given a running server's URL; in the 2025 era unless told otherwise.
 */
export async function connectMcp(
  headers: Record<string, string>,
  serverUrl?: string,
  era: McpEra = "2025-11-25",
): Promise<McpTestClient> {
  const url = new URL(serverUrl ?? MCP_URL);
  const options = { requestInit: { headers }, fetch: serverUrl ? fetch : routeFetch };
  if (era === "2025-11-25") {
    const client = new Client({ name: "sundown-tests", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, options));
    return client;
  }
  const client = new ModernClient(
    { name: "sundown-tests", version: "2.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new ModernTransport(url, options));
  if (client.getProtocolEra() !== "modern") throw new Error("the v2 client did not connect on 2026-07-28");
  return client as unknown as McpTestClient;
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/**
 * A JSON-RPC error as either client raised it: code, data, and the server's message. The v1 client prefixes
 * "MCP error <code>: " to the message, the v2 client does not; a second prefix would mean the server sent one.
 */
export function rpcErrorOf(thrown: unknown): { code: number; message: string; data: unknown } {
  const error = thrown as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof error?.code !== "number" || typeof error.message !== "string") throw thrown;
  const message = error.message.replace(/^MCP error -?\d+: /, "");
  if (message.includes("MCP error")) throw new Error(`the error message carries a second prefix: ${error.message}`);
  return { code: error.code, message, data: error.data };
}
