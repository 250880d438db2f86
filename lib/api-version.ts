// The version of API v1's contract, announced by the API root, the OpenAPI document, the MCP server and the docs page.
export const API_VERSION = "1.0.0";
