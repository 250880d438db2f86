import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { API_VERSION } from "@/lib/discovery/api-root";
import { ApiError } from "@/lib/errors";
import { SERVER_DESCRIPTION, SERVER_NAME, SERVER_TITLE, createSundownServer } from "./server";
import type { SundownSource } from "./source";

// The MCP server card (SEP-2127 draft, compatible with the registry's server.json): who the server is, where to
// connect and how to authenticate, plus the primitives. The primitives are read from the real server over an
// in-memory connection, so the card lists exactly what tools/list answers.

export const SERVER_CARD_CONTENT_TYPE = "application/mcp-server-card+json";
const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
// Streamable HTTP exists since 2025-03-26; older versions spoke HTTP+SSE.
const STREAMABLE_HTTP_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= "2025-03-26");

interface Primitives {
  capabilities: ServerCapabilities;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

// Listing primitives reads no data; a source that refuses everything proves it.
const noData = async (): Promise<never> => {
  throw new ApiError("insufficient_scope", "The server card reads no data.");
};
const discoverySource: SundownSource = { answer: noData };

async function listPrimitives(): Promise<Primitives> {
  const server = createSundownServer(discoverySource);
  const client = new Client({ name: "sundown-server-card", version: API_VERSION });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  try {
    const [{ tools }, { resources }, { resourceTemplates }, { prompts }] = await Promise.all([
      client.listTools(),
      client.listResources(),
      client.listResourceTemplates(),
      client.listPrompts(),
    ]);
    return { capabilities: client.getServerCapabilities() ?? {}, tools, resources, resourceTemplates, prompts };
  } finally {
    await client.close();
    await server.close();
  }
}

let primitives: Promise<Primitives> | undefined;

/** reverse-DNS of the host, as server cards name servers: sundown.acme.com → com.acme.sundown/sundown. */
export function serverCardName(base: string): string {
  const { hostname } = new URL(base);
  const isAddress = /^[0-9.]+$/.test(hostname) || hostname.includes(":") || !hostname.includes(".");
  const namespace = isAddress ? hostname.replace(/[^A-Za-z0-9.-]/g, "-") : hostname.split(".").reverse().join(".");
  return `${namespace}/${SERVER_NAME}`;
}

export async function buildServerCard(base: string) {
  primitives ??= listPrimitives().catch((error) => {
    primitives = undefined;
    throw error;
  });
  const { capabilities, tools, resources, resourceTemplates, prompts } = await primitives;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverCardName(base),
    version: API_VERSION,
    title: SERVER_TITLE,
    description: SERVER_DESCRIPTION,
    websiteUrl: `${base}/docs`,
    remotes: [
      {
        type: "streamable-http",
        url: `${base}/api/mcp`,
        supportedProtocolVersions: STREAMABLE_HTTP_VERSIONS,
        headers: [
          {
            name: "Authorization",
            description: `Bearer <API key>. Keys look like sdn_sk_…; a founder or lead creates one at ${base}/settings/api-keys. X-API-Key: <key> is accepted instead.`,
            isRequired: true,
            isSecret: true,
          },
        ],
        authentication: { required: true, schemes: ["bearer"] },
      },
    ],
    capabilities,
    tools,
    resources,
    resourceTemplates,
    prompts,
  };
}
