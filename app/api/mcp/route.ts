import { mcpMethodNotAllowed, mcpPost, mcpPreflight } from "@/lib/mcp/http";

// POST /api/mcp – MCP over stateless Streamable HTTP: whoami, list_reports, get_report, list_team.
export const POST = mcpPost;
export const OPTIONS = mcpPreflight;

export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
export const PUT = mcpMethodNotAllowed;
export const PATCH = mcpMethodNotAllowed;
