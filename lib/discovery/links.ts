import { discoveryUrls } from "@/lib/public-urls";

// The public documents an agent or a crawler starts from, each declared once with its media type and title.
// The API catalog's linkset (api-catalog.ts) and the Link headers of /, /docs and /api/v1 are both built from
// these, so the two cannot point at different places or call one document by two types.

export interface LinkTarget {
  href: string;
  type: string;
  title: string;
}

/** The registered media type of an OpenAPI 3.1 document in JSON (OpenAPI's media-types registry). */
const OPENAPI_MEDIA_TYPE = "application/vnd.oai.openapi+json;version=3.1";

export function discoveryTargets(base: string) {
  const urls = discoveryUrls(base);
  return {
    openapi: { href: urls.openapi, type: OPENAPI_MEDIA_TYPE, title: "OpenAPI 3.1 description of Sundown API v1" },
    documentation: { href: urls.documentation, type: "text/html", title: "Sundown API guide and reference" },
    documentationMarkdown: {
      href: urls.documentationMarkdown,
      type: "text/markdown",
      title: "Sundown API guide and reference (markdown)",
    },
    llmsTxt: { href: urls.llmsTxt, type: "text/plain", title: "Sundown guide for AI agents (llms.txt)" },
    llmsFullTxt: {
      href: urls.llmsFullTxt,
      type: "text/plain",
      title: "The whole Sundown guide and reference in one file (llms-full.txt)",
    },
    agentSkills: { href: urls.agentSkills, type: "application/json", title: "Agent Skills discovery index" },
    apiRoot: { href: urls.apiRoot, type: "application/json", title: "Sundown API root" },
    mcpServerCard: { href: urls.mcpServerCard, type: "application/json", title: "MCP server card" },
    mcpDocumentation: { href: `${urls.documentation}#mcp`, type: "text/html", title: "MCP setup" },
  } satisfies Record<string, LinkTarget>;
}

/** One link of an RFC 8288 Link header: the target, its relation and, when known, its type and title. */
interface WebLink {
  rel: string;
  href: string;
  type?: string;
  title?: string;
}

// RFC 8288 §3: parameters are quoted strings; none of ours holds a quote or a backslash.
function formatLink({ rel, href, type, title }: WebLink): string {
  const parameters = [`rel="${rel}"`, type && `type="${type}"`, title && `title="${title}"`].filter(Boolean);
  return [`<${href}>`, ...parameters].join("; ");
}

/** RFC 9727 §3: the Link that lets a response point at the API catalog. */
export function apiCatalogLink(base: string): string {
  return formatLink({ rel: "api-catalog", href: discoveryUrls(base).apiCatalog });
}

/**
 * The relations of the entry points' Link header (/, /docs, /api/v1), in order, each with what it points at:
 * the OpenAPI document describes the header from this list, so the two cannot disagree.
 */
export const DISCOVERY_RELATIONS = [
  { rel: "api-catalog", describes: "the API catalog (RFC 9727)" },
  { rel: "service-desc", describes: "the OpenAPI description (RFC 8631)" },
  { rel: "service-doc", describes: "the guide and reference for people (RFC 8631)" },
  { rel: "alternate", describes: "the same guide as markdown, for agents" },
] as const;

type DiscoveryRelation = (typeof DISCOVERY_RELATIONS)[number]["rel"];

/** The Link header of the entry points: each of DISCOVERY_RELATIONS with its target. */
export function discoveryLinkHeader(base: string): string {
  const targets = discoveryTargets(base);
  const targetOf: Record<DiscoveryRelation, Omit<WebLink, "rel">> = {
    "api-catalog": { href: discoveryUrls(base).apiCatalog },
    "service-desc": targets.openapi,
    "service-doc": targets.documentation,
    alternate: targets.documentationMarkdown,
  };
  return DISCOVERY_RELATIONS.map(({ rel }) => formatLink({ rel, ...targetOf[rel] })).join(", ");
}
