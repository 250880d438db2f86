import { AI_CATALOG_CONTENT_TYPE, buildAiCatalog } from "@/lib/discovery/ai-catalog";
import { routeBaseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { DISCOVERY_MAX_AGE_SECONDS } from "@/lib/discovery/mcp-server-card";

// GET /.well-known/ai-catalog.json – the AI catalog that points MCP clients at the server card.
export const GET = withRequest(async (request, context) =>
  jsonResponse(request, buildAiCatalog(routeBaseUrl(request, context)), {
    cache: "public",
    maxAge: DISCOVERY_MAX_AGE_SECONDS,
    headers: { "Content-Type": AI_CATALOG_CONTENT_TYPE },
  }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
