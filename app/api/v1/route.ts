import { getApiRoot } from "@/lib/discovery/api-root";
import { discoveryLinkHeader } from "@/lib/discovery/links";
import { routeBaseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /api/v1 – public discovery document; no key, no organization data, not rate-limited per key.
export const GET = withRequest(async (request, context) => {
  const base = routeBaseUrl(request, context);
  return jsonResponse(request, getApiRoot(base), {
    cache: "public",
    headers: { Link: discoveryLinkHeader(base) },
  });
});

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
