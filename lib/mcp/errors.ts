import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorBody, toApiError, type ErrorCode as ApiErrorCode } from "@/lib/errors";
import { describeToolError, type McpHooks } from "./tools";

// Resources and prompts have no tool result to carry an error, so their failures are JSON-RPC errors.
// The data member holds the contract's error body, so a client can still read `error` and `required_scope`.
const RESOURCE_NOT_FOUND = -32002;

const JSON_RPC_CODES: Partial<Record<ApiErrorCode, number>> = {
  not_found: RESOURCE_NOT_FOUND,
  invalid_parameter: ErrorCode.InvalidParams,
  insufficient_scope: ErrorCode.InvalidRequest,
  rate_limited: ErrorCode.InvalidRequest,
  unauthorized: ErrorCode.InvalidRequest,
};

export function toMcpError(thrown: unknown, primitive: string, hooks: McpHooks = {}): McpError {
  if (thrown instanceof McpError) return thrown;
  const error = toApiError(thrown);
  hooks.onError?.(primitive, error);
  return new McpError(
    JSON_RPC_CODES[error.code] ?? ErrorCode.InternalError,
    describeToolError(error),
    errorBody(error),
  );
}
