import { JSON_CONTENT_TYPE } from "@/lib/http/responses";
import { serverCardRoute } from "@/lib/mcp/server-card-route";

// GET /.well-known/mcp/server-card.json – the MCP server card at the contract's location.
export const GET = serverCardRoute(JSON_CONTENT_TYPE);
export { OPTIONS } from "@/lib/http/cors";

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
