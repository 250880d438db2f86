import { SERVER_CARD_CONTENT_TYPE } from "@/lib/mcp/server-card";
import { serverCardRoute } from "@/lib/mcp/server-card-route";

// GET /api/mcp/server-card – the MCP server card at the newer draft's location (endpoint URL + /server-card).
export const GET = serverCardRoute(SERVER_CARD_CONTENT_TYPE);
export { OPTIONS } from "@/lib/http/cors";

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
