import { ClientRequestSchema } from "@modelcontextprotocol/core";
import {
  isJSONRPCRequest,
  ProtocolErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from "@modelcontextprotocol/server";

// The SDK checks a request's params inside its handler wrapper, where a failure becomes -32602 (or -32603 for
// resources/read) carrying the whole validation dump. Checked here first against the same schemas, the same
// requests get JSON-RPC's -32602 Invalid params and one line saying what is wrong. Tool arguments of the right
// type but wrong content reach the tool, whose result says invalid_parameter like REST (lib/mcp/tools.ts).

const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/** The -32602 answer for a client request whose params do not have the shape its method needs, else undefined. */
export function invalidParamsResponse(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
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
