import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { McpEra, McpTestClient } from "./mcp-client";

/** How to start a stdio MCP server: the checkout's `sundown mcp`, or the packed package's bin. */
export interface StdioServerCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * The SDK's own client on a stdio server, as an MCP client starts one: the 1.x client for the 2025 era, the v2
 * client pinned to 2026-07-28 for the modern one (which must then speak it). Keeps the server's stderr and the
 * client's protocol errors.
 */
export async function connectStdioClient(server: StdioServerCommand, era: McpEra, clientName: string) {
  const params = { ...server, stderr: "pipe" as const };
  const modern = era === "2026-07-28";
  const transport = modern ? new ModernStdioTransport(params) : new StdioClientTransport(params);
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d));
  const protocolErrors: Error[] = [];
  const info = { name: clientName, version: "1.0.0" };
  const client = modern ? new ModernClient(info, { versionNegotiation: { mode: { pin: era } } }) : new Client(info);
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport as never);
  if (modern && (client as ModernClient).getProtocolEra() !== "modern") {
    throw new Error(`${server.command} did not speak 2026-07-28`);
  }
  return { client: client as McpTestClient, stderr: () => stderr, protocolErrors };
}
