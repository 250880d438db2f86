import { ApiError, toApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { recordKeyRequest, type CountedKey } from "@/lib/usage/record-key-request";
import { RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import { readRequestId } from "./request-id";
import { errorResponse } from "./responses";
import { mergeVary } from "./vary";

export type RouteParams = Record<string, string | string[] | undefined>;

/** What Next passes as the second argument of a route handler. */
export interface NextRouteContext {
  params?: Promise<RouteParams>;
}

export interface RequestContext {
  requestId: string;
  url: URL;
  params: RouteParams;
  /**
   * Headers added to whatever response the handler produces, errors included, where it has not set them; Vary is
   * merged with the response's own instead (mergeVary).
   */
  responseHeaders: Record<string, string>;
  /** Fields for this request's log line. */
  logFields: Record<string, unknown>;
  /** The active key the request presented (set by admitRequest, a rate-limited request too): its usage counts the outcome. */
  countedKey?: CountedKey;
}

export type RequestHandler = (request: Request, context: RequestContext) => Promise<Response>;

const SECURITY_HEADERS = { "X-Content-Type-Options": "nosniff" } as const;

// CORS policy of the public API (/api/v1 and the discovery documents). Callers authenticate with a
// bearer key in a header, never a cookie, so any origin may call: a page can only use a key it
// already holds, and no browser credentials are ever sent or honoured (no Allow-Credentials).
// Sign-in and settings routes do not use this and stay same-origin. Preflights: cors.ts.
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": [
    RATE_LIMIT_HEADER,
    RATE_LIMIT_POLICY_HEADER,
    RETRY_AFTER_HEADER,
    "ETag",
    REQUEST_ID_HEADER,
    "Link",
  ].join(", "),
} as const;

export interface WithRequestOptions {
  /** Send the public API's CORS headers (default); false keeps the route same-origin. */
  cors?: boolean;
}

/**
 * Outermost step of every API route: request id, error mapping to the one JSON error shape,
 * fixed headers (nosniff, CORS), and one structured log line.
 */
export function withRequest(handler: RequestHandler, { cors = true }: WithRequestOptions = {}) {
  return async (request: Request, routeContext?: NextRouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = readRequestId(request.headers);
    const url = new URL(request.url);
    const context: RequestContext = {
      requestId,
      url,
      params: (await routeContext?.params) ?? {},
      responseHeaders: {},
      logFields: {},
    };
    let response: Response;
    try {
      response = await handler(request, context);
    } catch (thrown) {
      // A client that hangs up mid-request makes reads fail with ECONNRESET, which would otherwise look like a
      // database outage: answer (to no one) as a bad request and log it as the client's doing, not ours.
      const clientGone = request.signal?.aborted === true;
      if (clientGone) context.logFields.client_aborted = true;
      const error = clientGone
        ? new ApiError("invalid_parameter", "The client closed the request before it completed.")
        : toApiError(thrown);
      if (error.status >= 500) {
        const cause = error.cause instanceof Error ? error.cause : undefined;
        log("error", "request failed", {
          request_id: requestId,
          code: error.code,
          error: cause?.message ?? String(error.cause ?? error.message),
          stack: cause?.stack,
        });
      }
      response = errorResponse(error, requestId);
    }
    const fixed = cors ? { ...SECURITY_HEADERS, ...CORS_HEADERS } : SECURITY_HEADERS;
    for (const [name, value] of Object.entries({ ...context.responseHeaders, ...fixed })) {
      if (name.toLowerCase() === "vary") response.headers.set(name, mergeVary(response.headers.get(name), value));
      else if (!response.headers.has(name)) response.headers.set(name, value);
    }
    response.headers.set(REQUEST_ID_HEADER, requestId);
    if (context.countedKey) recordKeyRequest(context.countedKey, response.status);
    log("info", "request", {
      request_id: requestId,
      method: request.method,
      route: url.pathname,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      ...context.logFields,
    });
    return response;
  };
}

/** A route that answers only with an error, e.g. for unknown paths. */
export function errorRoute(make: () => ApiError) {
  return withRequest(async () => {
    throw make();
  });
}
