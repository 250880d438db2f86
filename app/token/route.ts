// /token – the OAuth token endpoint MCP clients fall back to: Sundown has none.
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/discovery/no-oauth";
