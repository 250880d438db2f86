import { ApiError } from "@/lib/errors";
import { errorRoute } from "@/lib/http/with-request";

// Sundown has no OAuth authorization server (docs/api.md, "No OAuth"), so OAuth and OpenID discovery
// documents answer a JSON 404 — including the RFC 8414 / RFC 9728 variants with a path suffix — and clients
// fall back to the API key the error message points at.
const notFound = errorRoute(
  () =>
    new ApiError(
      "not_found",
      "Sundown has no OAuth authorization server. Authenticate with an API key (Authorization: Bearer <API_KEY>); see GET /api/v1.",
    ),
);

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
