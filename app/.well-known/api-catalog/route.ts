import { API_CATALOG_CONTENT_TYPE, buildApiCatalog } from "@/lib/discovery/api-catalog";
import { apiCatalogLink } from "@/lib/discovery/links";
import { routeBaseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest, type RequestContext } from "@/lib/http/with-request";

function catalogResponse(request: Request, context: RequestContext): Response {
  const base = routeBaseUrl(request, context);
  return jsonResponse(request, buildApiCatalog(base), {
    cache: "public",
    headers: { "Content-Type": API_CATALOG_CONTENT_TYPE, Link: apiCatalogLink(base) },
  });
}

// GET /.well-known/api-catalog – RFC 9727 API catalog pointing at the OpenAPI description and the docs.
export const GET = withRequest(async (request, context) => catalogResponse(request, context));

// HEAD /.well-known/api-catalog – RFC 9727 asks for HEAD support: the same headers (Link rel="api-catalog"), no body.
export const HEAD = withRequest(async (request, context) => {
  const response = catalogResponse(request, context);
  return new Response(null, { status: response.status, headers: response.headers });
});

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
