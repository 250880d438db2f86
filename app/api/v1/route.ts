import { buildApiRoot } from "@/lib/discovery/api-root";
import { baseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { apiRootSchema } from "@/lib/schemas/api-root";

// GET /api/v1 – public discovery document; no key, no organization data, not rate-limited per key.
export const GET = withRequest(async (request) =>
  jsonResponse(request, apiRootSchema.parse(buildApiRoot(baseUrl(request))), { cache: "public" }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
