import { getEnv } from "@/lib/env";
import { baseUrl } from "@/lib/http/base-url";
import { ApiError } from "@/lib/errors";

// MCP Streamable HTTP transport, "Security Warning": servers MUST validate Origin and answer 403 when it is
// present and not allowed, so that a web page cannot drive the endpoint from a visitor's browser. Clients
// outside a browser send no Origin and are served. Allowed: the service's own origin (SUNDOWN_URL's, or
// without it the host the request addressed, over http or https, since the scheme is unknown there) and the
// origins listed in SUNDOWN_MCP_ALLOWED_ORIGINS.

function isOwnOrigin(origin: URL, request: Request): boolean {
  const own = new URL(baseUrl(request));
  if (getEnv().SUNDOWN_URL) return origin.origin === own.origin;
  return origin.host === own.host && (origin.protocol === "http:" || origin.protocol === "https:");
}

function isAllowedOrigin(origin: string, request: Request): boolean {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!url || url.origin === "null") return false;
  return getEnv().SUNDOWN_MCP_ALLOWED_ORIGINS.includes(url.origin) || isOwnOrigin(url, request);
}

/** Refuses, with 403 forbidden, a browser request from an origin the MCP endpoint does not serve. */
export function requireAllowedOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null || isAllowedOrigin(origin, request)) return;
  throw new ApiError(
    "forbidden",
    "This web origin may not use the MCP endpoint. MCP clients outside a browser send no Origin and are served; " +
      "an operator can allow a browser-based client's origin with SUNDOWN_MCP_ALLOWED_ORIGINS.",
  );
}
