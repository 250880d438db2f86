import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLOUDFLARE_PATHS } from "./cloudflare";
import type { HttpSnapshot, McpListing, Observation } from "./types";

// Fetches a running Sundown the way the scanners do: plain GETs with a browser's Accept or an agent's, no key,
// following redirects; and the MCP endpoint with the SDK's own client and an API key, as a registry's crawler
// connects with the credentials the listing gives it.

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const SCANNER_AGENT = "sundown-agent-ready/1 (+scripts/agent-ready)";

async function get(url: string, accept = BROWSER_ACCEPT): Promise<HttpSnapshot> {
  try {
    const response = await fetch(url, { headers: { Accept: accept, "User-Agent": SCANNER_AGENT }, redirect: "follow" });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, body: await response.text() };
  } catch (error) {
    return { status: 0, headers: {}, body: String(error) };
  }
}

async function listMcp(base: string, key: string): Promise<McpListing | { error: string }> {
  const client = new Client({ name: "sundown-agent-ready", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", base), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const capabilities = client.getServerCapabilities() ?? {};
    const [tools, prompts, resources] = await Promise.all([
      client.listTools(),
      capabilities.prompts ? client.listPrompts() : { prompts: [] },
      capabilities.resources ? client.listResources() : { resources: [] },
    ]);
    return {
      serverInfo: client.getServerVersion() ?? {},
      instructions: client.getInstructions(),
      tools: tools.tools,
      prompts: prompts.prompts,
      resources: resources.resources,
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close();
  }
}

export async function observe(base: string, key: string): Promise<Observation> {
  const url = (path: string) => new URL(path, base).toString();
  const paths = Object.values(CLOUDFLARE_PATHS);
  const [home, homeMarkdown, openapi, mcp, ...documents] = await Promise.all([
    get(url("/")),
    get(url("/"), "text/markdown"),
    get(url("/openapi.json"), "application/json"),
    listMcp(base, key),
    ...paths.map((path) => get(url(path), "application/json, text/plain;q=0.9, */*;q=0.5")),
  ]);
  let document: Observation["openapi"];
  try {
    document = openapi.status === 200 ? JSON.parse(openapi.body) : undefined;
  } catch {
    document = undefined;
  }
  return {
    home,
    homeMarkdown,
    documents: Object.fromEntries(paths.map((path, i) => [path, documents[i]!])),
    openapi: document,
    mcp,
  };
}
