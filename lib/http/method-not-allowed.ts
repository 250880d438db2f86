import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import { errorRoute } from "./with-request";

const MCP_PATH = "/api/mcp";

const readOnlyApiError = () =>
  new ApiError("method_not_allowed", ERROR_MESSAGES.readOnly, { headers: { Allow: "GET, HEAD" } });

export const mcpMethodNotAllowedError = () =>
  new ApiError(
    "method_not_allowed",
    "The MCP endpoint is stateless: send each JSON-RPC message with POST. There is no stream (GET) or session (DELETE).",
    { headers: { Allow: "POST" } },
  );

/** The 405 for a method that no route of this path serves. */
export function methodNotAllowedError(pathname: string): ApiError {
  return pathname.replace(/\/+$/, "") === MCP_PATH ? mcpMethodNotAllowedError() : readOnlyApiError();
}

// The API is read-only: every route re-exports these for the methods it does not serve.
const methodNotAllowed = errorRoute(readOnlyApiError);

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
