import { routeBaseUrl } from "@/lib/http/base-url";
import { JSON_CONTENT_TYPE, jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import {
  buildServerCard,
  buildWellKnownServerCard,
  DISCOVERY_MAX_AGE_SECONDS,
  SERVER_CARD_CONTENT_TYPE,
} from "./mcp-server-card";

// Revalidated by ETag, readable from any origin: the server-card extension's caching and CORS guidance.

function cardRoute(build: (base: string) => Promise<unknown>, contentType: string) {
  return withRequest(async (request, context) =>
    jsonResponse(request, await build(routeBaseUrl(request, context)), {
      cache: "public",
      maxAge: DISCOVERY_MAX_AGE_SECONDS,
      headers: { "Content-Type": contentType, "Access-Control-Allow-Origin": "*" },
    }),
  );
}

/** GET <MCP endpoint>/server-card, under the extension's media type. */
export const serverCardRoute = cardRoute(buildServerCard, SERVER_CARD_CONTENT_TYPE);

/** GET /.well-known/mcp/server-card.json, the contract's location, as JSON. */
export const wellKnownServerCardRoute = cardRoute(buildWellKnownServerCard, JSON_CONTENT_TYPE);
