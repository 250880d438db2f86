import { apiReferenceScript } from "@/lib/discovery/api-reference-script";
import { representationResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /docs/api-reference.js – Scalar's browser build, which renders the reference on /docs. Public, an hour in
// any cache, revalidated by its ETag after a deploy.
export const GET = withRequest(async (request) =>
  representationResponse(request, await apiReferenceScript(), "text/javascript; charset=utf-8", {
    cache: "public",
    maxAge: 3600,
  }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
