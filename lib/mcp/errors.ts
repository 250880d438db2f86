import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { errorBody, toApiError, type ErrorCode as ApiErrorCode } from "@/lib/errors";
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
