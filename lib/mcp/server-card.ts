import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import { discoveryUrls } from "@/lib/public-urls";
import { ApiError } from "@/lib/errors";
import { AUTHORIZATION_HEADER } from "@/lib/header-names";
import { SERVER_NAME } from "./server";
import { serveMcp } from "./serve";
import type { SundownSource } from "./source";

// The MCP server card (the server-card extension, SEP-2127): who the server is, where to connect, which protocol
// revisions it speaks and which header carries the key. The card makes no claim about capabilities; its identity
// (title, description, website, icons) and the modern revisions are read from the live server's own
// server/discover, so the card cannot say what the server does not. The contract's location
// (/.well-known/mcp/server-card.json) also carries the instructions and lists the primitives, as the earlier draft
// the contract followed did; they are read from the same server, so they are exactly what a client reads.

export const SERVER_CARD_CONTENT_TYPE = "application/mcp-server-card+json";
/** Cards and the catalog that points at them are public and change only with a deploy: an hour in any cache. */
export const DISCOVERY_MAX_AGE_SECONDS = 3600;
const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
// 2025-era revisions with Streamable HTTP (2025-03-26 onwards); older ones spoke HTTP+SSE.
const LEGACY_STREAMABLE_HTTP_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= "2025-03-26");
const CARD_MODERN_VERSION = "2026-07-28";

// Listing primitives reads no data; a source that refuses everything proves it.
const noData = async (): Promise<never> => {
  throw new ApiError("insufficient_scope", "The server card reads no data.");
};
const discoverySource: SundownSource = { answer: noData };

/** One 2026-07-28 request to the real server, in process, as a client of `base` would send it. */
async function ask(base: string, method: string): Promise<Record<string, unknown>> {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { _meta: { [PROTOCOL_VERSION_META_KEY]: CARD_MODERN_VERSION, [CLIENT_CAPABILITIES_META_KEY]: {} } },
  };
  const request = new Request(discoveryUrls(base).mcpEndpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": CARD_MODERN_VERSION,
      "Mcp-Method": method,
    },
    body: JSON.stringify(message),
  });
  const { response } = await serveMcp(request, message, { clientId: "server-card", base, source: discoverySource });
  const answer = (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
  if (!answer.result) throw new Error(`${method} failed for the server card: ${answer.error?.message}`);
  return answer.result;
}

interface LiveFacts {
  modernVersions: string[];
  serverInfo: Record<string, unknown>;
  /** What a connected client would read: the instructions and the primitives. */
  session: { instructions: unknown; tools: unknown; resources: unknown; resourceTemplates: unknown; prompts: unknown };
}

async function readLiveFacts(base: string): Promise<LiveFacts> {
  const [discover, tools, resources, templates, prompts] = await Promise.all(
    ["server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list"].map((method) =>
      ask(base, method),
    ),
  );
  const meta = discover._meta as Record<string, Record<string, unknown>>;
  return {
    modernVersions: discover.supportedVersions as string[],
    serverInfo: meta[SERVER_INFO_META_KEY]!,
    session: {
      instructions: discover.instructions,
      tools: tools.tools,
      resources: resources.resources,
      resourceTemplates: templates.resourceTemplates,
      prompts: prompts.prompts,
    },
  };
}

// Per base URL, as the icons in them are absolute; a server sees one or a handful of bases.
const liveFacts = new Map<string, Promise<LiveFacts>>();

function facts(base: string): Promise<LiveFacts> {
  let read = liveFacts.get(base);
  if (!read) {
    read = readLiveFacts(base).catch((error) => {
      liveFacts.delete(base);
      throw error;
    });
    if (liveFacts.size >= 16) liveFacts.clear();
    liveFacts.set(base, read);
  }
  return read;
}

/** reverse-DNS of the host, as server cards name servers: sundown.acme.com → com.acme.sundown/sundown. */
export function serverCardName(base: string): string {
  const { hostname } = new URL(base);
  const isAddress = /^[0-9.]+$/.test(hostname) || hostname.includes(":") || !hostname.includes(".");
  const namespace = isAddress ? hostname.replace(/[^A-Za-z0-9.-]/g, "-") : hostname.split(".").reverse().join(".");
  return `${namespace}/${SERVER_NAME}`;
}

/**
 * The card at <MCP endpoint>/server-card: identity (title, description, website and icons as the live server's
 * serverInfo says them), the remote, both eras' revisions and the key header.
 */
export async function buildServerCard(base: string) {
  const { modernVersions, serverInfo } = await facts(base);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverCardName(base),
    version: serverInfo.version as string,
    title: serverInfo.title as string,
    description: serverInfo.description as string,
    websiteUrl: serverInfo.websiteUrl as string,
    icons: serverInfo.icons,
    remotes: [
      {
        type: "streamable-http",
        url: discoveryUrls(base).mcpEndpoint,
        supportedProtocolVersions: [...modernVersions, ...LEGACY_STREAMABLE_HTTP_VERSIONS],
        headers: [
          {
            name: AUTHORIZATION_HEADER,
            description: `Bearer <API key>. Keys look like sdn_sk_…; a founder or lead creates one at ${discoveryUrls(base).settings}. X-API-Key: <key> is accepted instead.`,
            placeholder: "Bearer sdn_sk_…",
            isRequired: true,
            isSecret: true,
          },
        ],
      },
    ],
  };
}

/** The card at the contract's location: the same card, plus the instructions and primitives a client would read. */
export async function buildWellKnownServerCard(base: string) {
  const [card, { session }] = await Promise.all([buildServerCard(base), facts(base)]);
  return { ...card, ...session };
}
