import { wellKnownServerCardRoute } from "@/lib/discovery/mcp-server-card-route";

// GET /.well-known/mcp/server-card.json – the MCP server card at the contract's location.
export const GET = wellKnownServerCardRoute;
export { OPTIONS } from "@/lib/http/cors";

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
