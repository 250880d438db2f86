import { serverCardRoute } from "@/lib/discovery/mcp-server-card-route";

// GET /api/mcp/server-card – the MCP server card where the server-card extension puts it (endpoint URL + /server-card).
export const GET = serverCardRoute;
export { OPTIONS } from "@/lib/http/cors";

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
