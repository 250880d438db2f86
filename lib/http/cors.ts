import { withRequest, type NextRouteContext } from "./with-request";

// CORS policy of the public API (/api/v1 and the discovery documents). Callers authenticate with a
// bearer key in a header, never a cookie, so any origin may call: a page can only use a key it
// already holds, and no browser credentials are ever sent or honoured (no Allow-Credentials).
// Sign-in and settings routes do not use this and stay same-origin.

export const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "RateLimit, RateLimit-Policy, Retry-After, ETag, X-Request-Id, Link",
} as const;

export interface PreflightOptions {
  methods?: string[];
  headers?: string[];
  /** Throws an ApiError for a request the route refuses, so its preflight does not advertise it either. */
  admit?: (request: Request) => void;
}

const API_METHODS = ["GET", "HEAD", "OPTIONS"];
const API_REQUEST_HEADERS = ["Authorization", "X-API-Key", "If-None-Match", "X-Request-Id"];

/** An OPTIONS handler answering CORS preflight requests with 204. */
export function corsPreflight({ methods = API_METHODS, headers = API_REQUEST_HEADERS, admit }: PreflightOptions = {}) {
  return withRequest(async (request) => {
    admit?.(request);
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Methods": methods.join(", "),
        "Access-Control-Allow-Headers": headers.join(", "),
        "Access-Control-Max-Age": "7200",
        "Cache-Control": "public, max-age=7200",
        ...(admit ? { Vary: "Origin" } : {}),
      },
    });
  });
}

let apiPreflight: ReturnType<typeof corsPreflight> | undefined;

/**
 * The preflight of every read-only API route: `export { OPTIONS } from "@/lib/http/cors"`.
 * Built on first use because with-request.ts imports this module's headers.
 */
export function OPTIONS(request: Request, context?: NextRouteContext): Promise<Response> {
  apiPreflight ??= corsPreflight();
  return apiPreflight(request, context);
}
