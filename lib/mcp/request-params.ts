import { ClientRequestSchema } from "@modelcontextprotocol/core";
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  ProtocolErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/server";

// The SDK checks a request's params inside its handler wrapper, where a failure becomes -32602 (or -32603 for
// resources/read) carrying the whole validation dump. When the SDK refuses a request whose params do not have
// the shape its method needs, the answer is replaced by JSON-RPC's -32602 Invalid params and one line saying what
// is wrong. Requests the SDK accepts are not checked twice. Tool arguments of the right type but wrong content
// reach the tool, whose result says invalid_parameter like REST (lib/mcp/tools.ts).

const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/** The -32602 answer for a client request whose params do not have the shape its method needs, else undefined. */
function invalidParamsResponse(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const schema = REQUEST_SCHEMAS.get(message.method);
  const parsed = schema?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: {
      code: ProtocolErrorCode.InvalidParams,
      message: `Invalid params for ${message.method}: ${where}${issue.message.replace(/^Invalid input: /, "")}.`,
    },
  };
}

/**
 * Makes a connected transport answer a request with malformed params in one line (invalidParamsResponse): the
 * SDK's own refusal of such a request is replaced on its way out. Only requests still unanswered are remembered.
 */
export function clarifyInvalidParams(transport: Transport): void {
  const unanswered = new Map<RequestId, JSONRPCRequest>();
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) unanswered.set(message.id, message);
    deliver(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const id = "id" in message ? message.id : undefined;
    const request = id === undefined || id === null ? undefined : unanswered.get(id);
    if (!request) return send(message, options);
    unanswered.delete(request.id);
    const clearer = isJSONRPCErrorResponse(message) ? invalidParamsResponse(request) : undefined;
    return send(clearer ?? message, options);
  };
}
