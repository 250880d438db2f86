import type { RequestCall } from "@/lib/admission/admit";
import { corsPreflight } from "@/lib/http/cors";
import { admitRequest, presentedKeyHash } from "@/lib/http/admit-request";
import { routeBaseUrl } from "@/lib/http/base-url";
import { ApiError, errorCodeForStatus } from "@/lib/errors";
import { mcpMethodNotAllowedError } from "@/lib/http/method-not-allowed";
import { readJsonBody } from "@/lib/http/read-json-body";
import { errorRoute, withRequest, type RequestContext } from "@/lib/http/with-request";
import { log } from "@/lib/log";
import { API_KEY_HEADER, AUTHORIZATION_HEADER, REQUEST_ID_HEADER } from "@/lib/header-names";
import { requireAllowedOrigin } from "./allowed-origin";
import { createDatabaseSource, toolCallOf } from "./database-source";
import { serveMcp, type McpEra } from "./serve";

// The remote MCP endpoint: stateless Streamable HTTP with JSON responses, one server per HTTP request.
// The HTTP layer does what REST does (key → rate limit) and refuses with the contract's JSON errors;
// once a message is accepted, the protocol speaks: tool failures are results with isError, others JSON-RPC errors.

/** The request's JSON body, or why it could not be read (refused after admission, as an unreadable message). */
type BodyRead = { body: unknown } | { unreadable: unknown };

/**
 * One JSON-RPC message per HTTP request. Batches (removed from MCP in 2025-06-18) are refused, so every call
 * is one request: counted once against the key's budget and checked for scope on its own.
 */
function requireSingleMessage(read: BodyRead): Record<string, unknown> {
  if ("unreadable" in read) throw read.unreadable;
  const { body } = read;
  if (Array.isArray(body)) {
    throw new ApiError(
      "invalid_parameter",
      "JSON-RPC batches are not accepted: send one message per HTTP request (MCP 2025-06-18 and later never batch).",
    );
  }
  if (body === null || typeof body !== "object" || (body as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
    throw new ApiError(
      "invalid_parameter",
      'The request body must be one JSON-RPC message: a JSON object with "jsonrpc": "2.0".',
    );
  }
  return body as Record<string, unknown>;
}

function addMessageLogFields(message: Record<string, unknown>, context: RequestContext): void {
  if (typeof message.method === "string") context.logFields.mcp_method = message.method;
  const params = message.params as { name?: unknown } | undefined;
  if (message.method === "tools/call" && typeof params?.name === "string")
    context.logFields.mcp_tool = params.name.slice(0, 64);
}

// POST /api/mcp – one JSON-RPC message; the same key check and per-key budget as /api/v1.
export const mcpPost = withRequest(async (request, context) => {
  requireAllowedOrigin(request);

  context.responseHeaders["Cache-Control"] = "no-store";
  // The body is read before the key lookup (never without a well-formed key), so that a tool call's read can
  // travel with the lookup, as REST's does; a body the endpoint refuses is refused after admission, counted.
  const keyHash = await presentedKeyHash(request);
  const read: BodyRead = await readJsonBody(request).then(
    (body) => ({ body }),
    (unreadable: unknown) => ({ unreadable }),
  );
  let message: Record<string, unknown> | undefined;
  let call: RequestCall | undefined;
  try {
    message = requireSingleMessage(read);
    addMessageLogFields(message, context);
    call = toolCallOf(message);
  } catch (refused) {
    call = { refused };
  }
  const { key, answer } = await admitRequest(request, context, call, keyHash);
  // A message the endpoint refuses is the request's refusal, not a tool's: admission held it until now.
  if (!message)
    throw answer && "refused" in answer ? answer.refused : new Error("MCP message neither read nor refused");

  const { era, response } = await serveMcp(request, message, {
    key,
    base: routeBaseUrl(request, context),
    source: createDatabaseSource(key, call && "name" in call && answer ? { name: call.name, answer } : undefined),
    hooks: {
      onError: (primitive, error) => {
        if (error.status < 500) return;
        const cause = error.cause instanceof Error ? error.cause : undefined;
        log("error", "mcp request failed", {
          request_id: context.requestId,
          primitive,
          code: error.code,
          error: cause?.message,
          stack: cause?.stack,
        });
      },
    },
  });
  context.logFields.mcp_era = era;
  return refusalAsApiError(era, response);
});

/**
 * The 2025-era transport refuses some requests itself (an Accept header without text/event-stream: 406, a
 * Content-Type other than JSON: 415, a message that is not JSON-RPC: 400) with a JSON-RPC error body. The
 * contract answers every refusal with its Error shape, so these are rethrown as ApiErrors with the transport's
 * status and message. The 2026-07-28 revision defines its refusals as JSON-RPC errors with HTTP 400 (a header
 * that disagrees with the body: -32020; an unsupported version: -32022), and its clients act on them (the SDK
 * retries a -32020), so those pass through as the specification writes them. Answers to accepted messages,
 * JSON-RPC errors included, come with 2xx and pass through untouched.
 */
async function refusalAsApiError(era: McpEra, response: Response): Promise<Response> {
  if (response.status < 400) return response;
  // Only the revision's own refusals (HTTP 400) pass through; the transport's others (415 for a missing
  // Content-Type, 406 for an Accept it cannot serve) are the contract's errors in both eras (fuzz.test.ts).
  if (era === "2026-07-28" && response.status === 400) return response;
  const body = (await response.json().catch(() => undefined)) as { error?: { message?: unknown } } | undefined;
  const message =
    typeof body?.error?.message === "string" ? body.error.message : "The MCP transport refused the request.";
  if (response.status >= 500) throw new Error(`MCP transport answered ${response.status}: ${message}`);
  throw new ApiError(errorCodeForStatus(response.status), message);
}

// GET and DELETE /api/mcp – a stateless server has no SSE stream to open and no session to end.
export const mcpMethodNotAllowed = errorRoute(mcpMethodNotAllowedError);

export const mcpPreflight = corsPreflight({
  admit: requireAllowedOrigin,
  methods: ["POST", "OPTIONS"],
  headers: [
    AUTHORIZATION_HEADER,
    API_KEY_HEADER,
    "Content-Type",
    "Accept",
    "Mcp-Protocol-Version",
    "Mcp-Method",
    "Mcp-Name",
    REQUEST_ID_HEADER,
  ],
});
