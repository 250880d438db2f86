import { ProtocolError, ProtocolErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { boundedMessage, EXCERPT_MAX } from "@/lib/text/input-excerpt";
import { escapeInvisibles } from "@/lib/text/invisible-characters";
import { errorBody, toApiError, type ErrorCode as ApiErrorCode } from "@/lib/errors";
import { LEGACY_REVISIONS, MODERN_REVISIONS } from "./revisions";
import { describeToolError, type McpHooks } from "./tools";

// Resources and prompts have no tool result to carry an error, so their failures are JSON-RPC errors.
// The data member holds the contract's error body, so a client can still read `error` and `required_scope`.
// A resource that does not exist is -32602 with the URI in data, on both eras: the 2026-07-28 revision
// requires it, and 2025 clients built on the SDK read it the same way (-32002 is deprecated).

const JSON_RPC_CODES: Partial<Record<ApiErrorCode, number>> = {
  not_found: ProtocolErrorCode.InvalidParams,
  invalid_parameter: ProtocolErrorCode.InvalidParams,
  insufficient_scope: ProtocolErrorCode.InvalidRequest,
  rate_limited: ProtocolErrorCode.InvalidRequest,
  unauthorized: ProtocolErrorCode.InvalidRequest,
};

/** The JSON-RPC error for a failed resource read or prompt; `uri` names the resource asked for, if any. */
export function toMcpError(thrown: unknown, primitive: string, hooks: McpHooks = {}, uri?: URL): ProtocolError {
  if (thrown instanceof ProtocolError) return thrown;
  const error = toApiError(thrown);
  hooks.onError?.(primitive, error);
  const data = { ...(error.code === "not_found" && uri ? { uri: uri.href } : {}), ...errorBody(error) };
  return new ProtocolError(
    JSON_RPC_CODES[error.code] ?? ProtocolErrorCode.InternalError,
    describeToolError(error),
    data,
  );
}

// Sundown serves both eras: 2026-07-28 through the SDK's handler, and the 2025 revisions with Streamable HTTP
// (2025-03-26 onwards; older ones spoke HTTP+SSE) through initialize. The SDK answers a request for a revision it
// does not serve (-32022) with only the 2026-07-28 revisions its handler knows. A dual-era server names every
// revision it serves, newest first (the 2026-07-28 specification's example: ["2026-07-28", "2025-11-25"]), so a
// client also learns that it may fall back to initialize.

/** The message as it is, unless it is an unsupported-revision error: then it names every revision Sundown serves. */
export function withEveryServedRevision<M extends JSONRPCMessage>(message: M): M {
  if (!("error" in message) || message.error.code !== ProtocolErrorCode.UnsupportedProtocolVersion) return message;
  const data = message.error.data as { supported?: unknown } | undefined;
  if (!Array.isArray(data?.supported)) return message;
  const modern = data.supported.filter((v): v is string => typeof v === "string" && v >= MODERN_REVISIONS[0]!);
  const supported = [...new Set([...modern, ...LEGACY_REVISIONS])].toSorted().reverse();
  return { ...message, error: { ...message.error, data: { ...data, supported } } };
}

// The SDK quotes what a client sent in some of its errors, whole ("Tool <name> not found", "Resource <uri> not
// found"). Sundown's own messages quote at most an excerpt (lib/data/input-excerpt.ts); the SDK's are bounded and
// escaped on their way out, by the HTTP endpoint for a request that sent such text (lib/mcp/serve.ts) and by the
// stdio transport for every error it sends.

/** Whether a request names something (a tool, prompt, resource, reference) in text longer or stranger than an excerpt. */
export function namesUnsafely(message: unknown): boolean {
  const params = (message as { params?: unknown } | null)?.params as Record<string, unknown> | undefined;
  if (typeof params !== "object" || params === null) return false;
  const ref = params.ref as Record<string, unknown> | undefined;
  return [params.name, params.uri, ref?.name, ref?.uri].some(
    (text) => typeof text === "string" && (text.length > EXCERPT_MAX || escapeInvisibles(text) !== text),
  );
}

/** The message as it is, unless it is an error: then its text, and the URI its data names, are escaped and bounded. */
export function withBoundedErrorMessage<M extends JSONRPCMessage>(message: M): M {
  if (!("error" in message) || typeof message.error.message !== "string") return message;
  const { message: text, data } = message.error;
  const uri = (data as { uri?: unknown } | undefined)?.uri;
  const boundedText = boundedMessage(text);
  const boundedUri = typeof uri === "string" ? boundedMessage(uri) : uri;
  if (boundedText === text && boundedUri === uri) return message;
  const boundedData = boundedUri === uri ? data : { ...(data as object), uri: boundedUri };
  return { ...message, error: { ...message.error, message: boundedText, data: boundedData } };
}
