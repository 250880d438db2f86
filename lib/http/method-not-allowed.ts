import { ApiError } from "./errors";
import { errorRoute } from "./with-request";

// The API is read-only: every route re-exports these for the methods it does not serve.
const methodNotAllowed = errorRoute(
  () => new ApiError("method_not_allowed", "This API is read-only: use GET or HEAD.", { headers: { Allow: "GET, HEAD" } }),
);

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
