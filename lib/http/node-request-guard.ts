import http from "node:http";
import { log } from "@/lib/log";
import { ApiError, errorBody } from "@/lib/errors";
import { AUTHORIZATION_HEADER, REQUEST_ID_HEADER } from "@/lib/header-names";
import { stampPeerAddress } from "@/lib/ratelimit/client-address";
import { loggedRoute } from "./logged-route";
import { methodNotAllowedError } from "./method-not-allowed";
import { readRequestId } from "./request-id";
import { JSON_CONTENT_TYPE } from "./responses";

// The one hook on Node's requests, before Next takes them. Route handlers and proxy.ts never see the socket,
// so the peer address is stamped into a header of ours (client-address.ts). And two things they cannot see
// are settled here:
// - Next serves only the methods below; any other that Node's parser accepts fails inside Next with a
//   text/plain 500 (TRACE: the fetch Request refuses to exist) or an empty 400 (PROPFIND…).
// - Node keeps only the first of repeated Authorization headers, so a second key would go unnoticed. Joined as
//   the fetch Headers would join them, they reach readApiKey, which refuses a list.
// - A path whose percent-encoding does not decode (`%zz`, `%E0%A4` without its last byte) fails inside Next with a
//   text/plain 500 wherever a route has a dynamic segment (/api/v1/reports/[id], /settings/webhooks/[endpointId]…),
//   logged by no one: it is a bad request, answered here for every path alike.

// Node's parsed headers are keyed by lower-case name.
const AUTHORIZATION = AUTHORIZATION_HEADER.toLowerCase();
const REQUEST_ID = REQUEST_ID_HEADER.toLowerCase();

const ROUTED_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);

const registry = globalThis as typeof globalThis & { __sundownRequestGuard?: true };

/** Whether the request's path (before any query) decodes as percent-encoded UTF-8, as Next decodes it. */
function hasDecodablePath(url: string): boolean {
  const query = url.indexOf("?");
  try {
    decodeURIComponent(query < 0 ? url : url.slice(0, query));
    return true;
  } catch {
    return false;
  }
}

const undecodablePath = () =>
  new ApiError(
    "invalid_parameter",
    "The request path is not valid percent-encoding: each % must begin an escape such as %20, and the escapes must spell UTF-8.",
  );

/** The request's path, also from an absolute-form target (`GET http://host/path`) whose host does not parse. */
function routeOf(url: string): string {
  return URL.canParse(url, "http://localhost") ? new URL(url, "http://localhost").pathname : url.split("?", 1)[0]!;
}

/** Answers in the API's JSON error shape, with a request id, and logs the request as withRequest does. */
function answerError(request: http.IncomingMessage, response: http.ServerResponse, error: ApiError): void {
  const requestId = readRequestId(new Headers({ [REQUEST_ID_HEADER]: String(request.headers[REQUEST_ID] ?? "") }));
  const route = loggedRoute(routeOf(request.url ?? "/"));
  const body = JSON.stringify(errorBody(error, requestId));
  response.writeHead(error.status, {
    "Content-Type": JSON_CONTENT_TYPE,
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    [REQUEST_ID_HEADER]: requestId,
    ...error.headers,
  });
  response.end(body);
  log("info", "request", { request_id: requestId, method: request.method, route, status: error.status });
}

function joinRepeatedAuthorization(request: http.IncomingMessage): void {
  const raw = request.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === AUTHORIZATION.length && raw[i].toLowerCase() === AUTHORIZATION) values.push(raw[i + 1]);
  }
  if (values.length > 1) request.headers[AUTHORIZATION] = values.join(", ");
}

/** Installs the guard on every HTTP server of the process (called once at start-up). */
export function guardNodeRequests(): void {
  if (registry.__sundownRequestGuard) return;
  registry.__sundownRequestGuard = true;
  const prototype = http.Server.prototype;
  const emit = prototype.emit;
  prototype.emit = function emitGuarded(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      stampPeerAddress(request);
      if (!ROUTED_METHODS.has(request.method ?? "")) {
        answerError(request, response, methodNotAllowedError(routeOf(request.url ?? "/")));
        return true;
      }
      if (!hasDecodablePath(request.url ?? "/")) {
        answerError(request, response, undecodablePath());
        return true;
      }
      joinRepeatedAuthorization(request);
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof prototype.emit;
}
