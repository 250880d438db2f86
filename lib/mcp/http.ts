import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { corsPreflight } from "@/lib/http/cors";
import { admitKey } from "@/lib/http/admit-key";
import { ApiError, errorCodeForStatus } from "@/lib/errors";
import { mcpMethodNotAllowedError } from "@/lib/http/method-not-allowed";
import { readJsonBody } from "@/lib/http/read-json-body";
import { errorRoute, withRequest, type RequestContext } from "@/lib/http/with-request";
import { log } from "@/lib/log";
import { requireAllowedOrigin } from "./allowed-origin";
import { createDatabaseSource } from "./database-source";
import { connectServer, createSundownServer } from "./server";

// The remote MCP endpoint: stateless Streamable HTTP with JSON responses, one server per HTTP request.
// The HTTP layer does what REST does (key → rate limit) and refuses with the contract's JSON errors;
// once a message is accepted, the protocol speaks: tool failures are results with isError, others JSON-RPC errors.

/**
 * One JSON-RPC message per HTTP request. Batches (removed from MCP in 2025-06-18) are refused, so every call
 * is one request: counted once against the key's budget and checked for scope on its own.
 */
function requireSingleMessage(body: unknown): Record<string, unknown> {
  if (Array.isArray(body)) {
    throw new ApiError(
      "invalid_parameter",
      "JSON-RPC batches are not accepted: send one message per HTTP request (MCP 2025-06-18 and later never batch).",
    );
  }
  if (body === null || typeof body !== "object") {
    throw new ApiError("invalid_parameter", "The request body must be one JSON-RPC message (a JSON object).");
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
  const { key } = await admitKey(request, context);
  const message = requireSingleMessage(await readJsonBody(request));
  addMessageLogFields(message, context);

  const server = createSundownServer(createDatabaseSource(key), {
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
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await connectServer(server, transport);
  try {
    return await refusalAsApiError(await transport.handleRequest(request, { parsedBody: message }));
  } finally {
    await server.close();
  }
});

/**
 * The transport refuses some requests itself (an Accept header without text/event-stream: 406, a
 * Content-Type other than JSON: 415, a message that is not JSON-RPC or an unknown Mcp-Protocol-Version:
 * 400) with a JSON-RPC error body. The contract answers every refusal with its Error shape, so these are
 * rethrown as ApiErrors with the transport's status and message. Answers to accepted messages, JSON-RPC
 * errors included, come with 2xx and pass through untouched.
 */
async function refusalAsApiError(response: Response): Promise<Response> {
  if (response.status < 400) return response;
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
  headers: ["Authorization", "X-API-Key", "Content-Type", "Accept", "Mcp-Protocol-Version", "X-Request-Id"],
});
