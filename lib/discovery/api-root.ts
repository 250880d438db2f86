import { KEY_PATTERN_SOURCE } from "@/lib/auth/api-key";
import { SCOPES } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/env";
import type { ApiRoot } from "@/lib/schemas/api-root";

export const API_VERSION = "1.0.0";

/** The endpoints of API v1, named as in GET /api/v1. */
export const ENDPOINTS = {
  identity: "GET /api/v1/me",
  list_reports: "GET /api/v1/reports",
  get_report: "GET /api/v1/reports/{id}",
  team: "GET /api/v1/team",
} as const;

export function buildApiRoot(base: string): ApiRoot {
  return {
    name: "Sundown",
    version: API_VERSION,
    description:
      "Read-only, organization-scoped access to end-of-day reports (shipped, silent, slipping, blockers, KPI status) and the team roster, for AI agents and scripts.",
    documentation: `${base}/docs`,
    openapi: `${base}/openapi.json`,
    api_catalog: `${base}/.well-known/api-catalog`,
    mcp: {
      endpoint: `${base}/api/mcp`,
      transport: "streamable-http",
      server_card: `${base}/.well-known/mcp/server-card.json`,
    },
    authentication: {
      type: "api_key",
      scheme: "bearer",
      format: KEY_PATTERN_SOURCE,
      header: "Authorization: Bearer <API_KEY>",
      alternative_header: "X-API-Key",
      how_to_obtain: `${base}/settings/api-keys`,
      scopes: [...SCOPES],
    },
    endpoints: { ...ENDPOINTS },
    rate_limit: `${getEnv().SUNDOWN_RATE_LIMIT} requests per minute per API key (sliding window); over the limit returns 429 rate_limited with Retry-After.`,
  };
}
