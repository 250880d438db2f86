import { localhostAllowedHostnames } from "@modelcontextprotocol/server";
import { getEnv, type Env } from "@/lib/env";
import { baseUrl } from "@/lib/http/base-url";
import { ApiError } from "@/lib/errors";

// MCP Streamable HTTP transport, "Security Warning": servers MUST validate Origin and answer 403 when it is
// present and not allowed, so that a web page cannot drive the endpoint from a visitor's browser. Clients
// outside a browser send no Origin and are served. Allowed: the origins listed in SUNDOWN_MCP_ALLOWED_ORIGINS,
// and the service's own origin. That is configuration, never the request: a page on a name its attacker
// points at this server (DNS rebinding) sends that name as both Host and Origin, so a Host-derived origin
// would always match. Own is SUNDOWN_URL's and NEXTAUTH_URL's origin when either is set (production requires
// one); with neither (development), the host the request addressed when it is this machine (localhost,
// 127.0.0.1, [::1]), over http or https, since the scheme is unknown there.

function configuredOrigins(env: Env): string[] {
  return [env.SUNDOWN_URL, env.NEXTAUTH_URL].filter((url) => url !== undefined).map((url) => new URL(url).origin);
}

function isLoopbackOrigin(origin: URL, request: Request): boolean {
  const addressed = new URL(baseUrl(request));
  return (
    localhostAllowedHostnames().includes(addressed.hostname) &&
    origin.host === addressed.host &&
    (origin.protocol === "http:" || origin.protocol === "https:")
  );
}

function isAllowedOrigin(origin: string, request: Request): boolean {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!url || url.origin === "null") return false;
  const env = getEnv();
  if (env.SUNDOWN_MCP_ALLOWED_ORIGINS.includes(url.origin)) return true;
  const own = configuredOrigins(env);
  return own.length > 0 ? own.includes(url.origin) : isLoopbackOrigin(url, request);
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
