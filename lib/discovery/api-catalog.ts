import { discoveryUrls } from "./api-root";

// RFC 9727 API catalog: a linkset (RFC 9264) whose profile parameter names RFC 9727.
const API_CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
const OPENAPI_MEDIA_TYPE = "application/vnd.oai.openapi+json;version=3.1";

interface LinkTarget {
  href: string;
  type?: string;
  title?: string;
}

export interface ApiCatalog {
  linkset: ({ anchor: string } & Record<string, LinkTarget[] | string>)[];
}

export function buildApiCatalog(base: string): ApiCatalog {
  const urls = discoveryUrls(base);
  return {
    linkset: [
      {
        anchor: urls.apiRoot,
        "service-desc": [
          { href: urls.openapi, type: OPENAPI_MEDIA_TYPE, title: "OpenAPI 3.1 description of Sundown API v1" },
        ],
        "service-doc": [
          { href: urls.documentation, type: "text/html", title: "Sundown API guide and reference" },
          { href: urls.llmsTxt, type: "text/plain", title: "Sundown guide for AI agents (llms.txt)" },
        ],
        "service-meta": [{ href: urls.apiRoot, type: "application/json", title: "Sundown API root" }],
      },
      {
        anchor: urls.mcpEndpoint,
        "service-desc": [{ href: urls.mcpServerCard, type: "application/json", title: "MCP server card" }],
        "service-doc": [{ href: `${urls.documentation}#mcp`, type: "text/html", title: "MCP setup" }],
      },
    ],
  };
}
