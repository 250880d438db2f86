import { discoveryUrls } from "@/lib/public-urls";
import { discoveryTargets, type LinkTarget } from "./links";

// RFC 9727 API catalog: a linkset (RFC 9264) whose profile parameter names RFC 9727.
const API_CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

export interface ApiCatalog {
  linkset: ({ anchor: string } & Record<string, LinkTarget[] | string>)[];
}

export function buildApiCatalog(base: string): ApiCatalog {
  const urls = discoveryUrls(base);
  const targets = discoveryTargets(base);
  return {
    linkset: [
      {
        anchor: urls.apiRoot,
        "service-desc": [targets.openapi],
        "service-doc": [
          targets.documentation,
          targets.documentationMarkdown,
          targets.llmsTxt,
          targets.llmsFullTxt,
          targets.agentSkills,
        ],
        "service-meta": [targets.apiRoot],
      },
      {
        anchor: urls.mcpEndpoint,
        "service-desc": [targets.mcpServerCard],
        "service-doc": [targets.mcpDocumentation],
      },
    ],
  };
}
