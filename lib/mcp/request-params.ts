import { ClientRequestSchema } from "@modelcontextprotocol/core";
import { isJSONRPCRequest, ProtocolErrorCode, type JSONRPCErrorResponse } from "@modelcontextprotocol/server";
import { boundedMessage } from "@/lib/text/input-excerpt";

// The SDK refuses a request whose params do not have the shape its method needs inside its handler wrapper, as
// -32602 (or -32603 for resources/read) carrying the whole validation dump. Sundown answers such a request with
// JSON-RPC's -32602 Invalid params and one line saying what is wrong. The edges (lib/mcp/serve.ts for HTTP, the
// stdio transport in lib/mcp/stdio.ts) check each message once, before the SDK sees it, and put this answer in
// place of the SDK's. Tool arguments of the right type but wrong content reach the tool, whose result says
// invalid_parameter like REST (lib/mcp/tools.ts).

const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/** The -32602 answer for a client request whose params do not have the shape its method needs, else undefined. */
export function invalidParamsResponse(message: unknown): JSONRPCErrorResponse | undefined {
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
      // The path names keys the client chose: bounded and escaped like any text quoted back.
      message: boundedMessage(
        `Invalid params for ${message.method}: ${where}${issue.message.replace(/^Invalid input: /, "")}.`,
      ),
    },
  };
}
