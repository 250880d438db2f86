// /register – OAuth dynamic client registration (RFC 7591), probed by MCP clients: Sundown has none.
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/discovery/no-oauth";
