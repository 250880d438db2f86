import { SERVER_CARD_CONTENT_TYPE } from "./mcp-server-card";
import { SERVER_NAME } from "@/lib/mcp/server";
import { discoveryUrls } from "@/lib/public-urls";

// The domain-level catalog the MCP server-card extension uses for discovery (an AI Catalog at
// /.well-known/ai-catalog.json): one entry, pointing at the server card rather than repeating it, so the two
// cannot drift apart.

export const AI_CATALOG_CONTENT_TYPE = "application/ai-catalog+json";

export function buildAiCatalog(base: string) {
  const { hostname } = new URL(base);
  return {
    specVersion: "1.0",
    entries: [
      {
        identifier: `urn:air:${hostname}:mcp:${SERVER_NAME}`,
        type: SERVER_CARD_CONTENT_TYPE,
        url: discoveryUrls(base).mcpEndpointServerCard,
      },
    ],
  };
}
