import { KEY_PATTERN_SOURCE } from "@/lib/auth/api-key";
import { SCOPES } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/env";
import { endpointOf, KEYED_OPERATIONS } from "@/lib/operations/table";
import { apiRootSchema, LISTED_ENDPOINTS, type ApiRoot } from "@/lib/schemas/api-root";
import { API_VERSION } from "@/lib/api-version";
import { discoveryUrls } from "@/lib/public-urls";
import { API_KEY_HEADER, AUTHORIZATION_HEADER } from "@/lib/header-names";

/** The endpoints of API v1 as GET /api/v1 names them, from the operations table: the contract's names only. */
const ENDPOINTS = Object.fromEntries(
  KEYED_OPERATIONS.filter((operation) => (LISTED_ENDPOINTS as readonly string[]).includes(operation.name)).map(
    (operation) => [operation.name, endpointOf(operation)],
  ),
) as Record<(typeof LISTED_ENDPOINTS)[number], string>;

export function rateLimitStatement(): string {
  const limit = getEnv().SUNDOWN_RATE_LIMIT;
  return `${limit} requests per minute per API key (a rolling window: at most ${limit} in any 60 seconds); over the limit returns 429 rate_limited with Retry-After.`;
}

export function buildApiRoot(base: string): ApiRoot {
  const urls = discoveryUrls(base);
  return {
    name: "Sundown",
    version: API_VERSION,
    description:
      "Read-only, organization-scoped access to end-of-day reports (shipped, silent, slipping, blockers, KPI status) and the team roster, for AI agents and scripts.",
    documentation: urls.documentation,
    openapi: urls.openapi,
    api_catalog: urls.apiCatalog,
    mcp: {
      endpoint: urls.mcpEndpoint,
      transport: "streamable-http",
      server_card: urls.mcpServerCard,
    },
    authentication: {
      type: "api_key",
      scheme: "bearer",
      format: KEY_PATTERN_SOURCE,
      header: AUTHORIZATION_HEADER,
      alternative_header: API_KEY_HEADER,
      how_to_obtain: urls.settings,
      scopes: [...SCOPES],
    },
    endpoints: { ...ENDPOINTS },
    rate_limit: rateLimitStatement(),
  };
}

// The document depends only on the base URL and the rate limit: built and checked once per pair (a server
// sees one base URL, or a handful behind a trusted proxy).
const checkedRoots = new Map<string, ApiRoot>();

/** The ApiRoot for a base URL, parsed by its schema once and then reused. */
export function getApiRoot(base: string): ApiRoot {
  const cacheKey = `${base}|${getEnv().SUNDOWN_RATE_LIMIT}`;
  let root = checkedRoots.get(cacheKey);
  if (!root) {
    root = apiRootSchema.parse(buildApiRoot(base));
    if (checkedRoots.size >= 16) checkedRoots.clear();
    checkedRoots.set(cacheKey, root);
  }
  return root;
}
