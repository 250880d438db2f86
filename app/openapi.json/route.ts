import { routeBaseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { buildOpenApiDocument } from "@/lib/openapi/document";

// GET /openapi.json – the OpenAPI 3.1 description, generated from the runtime zod schemas.
// Public and CORS-open (withRequest) so browser-based tools and agents on other origins can load it.
export const GET = withRequest(async (request, context) =>
  jsonResponse(request, buildOpenApiDocument(routeBaseUrl(request, context)), { cache: "public" }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
