import { ApiError } from "@/lib/errors";
import { errorRoute } from "@/lib/http/with-request";

// Any /api path no route claims: a JSON 404, never the framework's HTML page.
const notFound = errorRoute(
  () => new ApiError("not_found", "No such API endpoint. See GET /api/v1 for the endpoints."),
);

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
