import { discoveryUrls } from "@/lib/public-urls";
import { AUTHORIZATION_HEADER } from "@/lib/header-names";
import { listedPrimitives } from "./mcp-primitive-listing";
import { LEGACY_REVISIONS, MODERN_REVISIONS } from "@/lib/mcp/revisions";
import { SERVER_INSTRUCTIONS, SERVER_NAME, serverInfoAt } from "@/lib/mcp/server";

// The MCP server card (the server-card extension, SEP-2127): who the server is, where to connect, which protocol
// revisions it speaks and which header carries the key. The card makes no claim about capabilities. Its identity
// (title, description, website, icons) is the serverInfo the live server gives, from the same function, so the
// card cannot say what the server does not. The contract's location (/.well-known/mcp/server-card.json) also
// carries the instructions and lists the primitives, as the earlier draft the contract followed did; they are
// built from the definitions the server registers, so they are exactly what a client reads.

export const SERVER_CARD_CONTENT_TYPE = "application/mcp-server-card+json";
/** Cards and the catalog that points at them are public and change only with a deploy: an hour in any cache. */
export const DISCOVERY_MAX_AGE_SECONDS = 3600;
const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

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
  const { version, title, description, websiteUrl, icons } = serverInfoAt(base);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverCardName(base),
    version,
    title,
    description,
    websiteUrl,
    icons,
    remotes: [
      {
        type: "streamable-http",
        url: discoveryUrls(base).mcpEndpoint,
        supportedProtocolVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS],
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
  return { ...(await buildServerCard(base)), instructions: SERVER_INSTRUCTIONS, ...listedPrimitives(base) };
}
