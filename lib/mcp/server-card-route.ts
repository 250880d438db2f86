import { routeBaseUrl } from "@/lib/http/base-url";
import { JSON_CONTENT_TYPE, jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { buildServerCard, SERVER_CARD_CONTENT_TYPE } from "./server-card";

/** GET handler serving the server card under a media type: public, cacheable, readable from any origin. */
export function serverCardRoute(contentType: typeof SERVER_CARD_CONTENT_TYPE | typeof JSON_CONTENT_TYPE) {
  return withRequest(async (request, context) =>
    jsonResponse(request, await buildServerCard(routeBaseUrl(request, context)), {
      cache: "public",
      headers: { "Content-Type": contentType, "Access-Control-Allow-Origin": "*" },
    }),
  );
}
