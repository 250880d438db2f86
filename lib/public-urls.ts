// Kept below every surface rather than in lib/discovery: the MCP server names these addresses too, and
// lib/discovery builds on lib/mcp (the AI catalog carries the MCP server card).

/** Addresses of the public discovery documents and pages under one base URL. */
export function discoveryUrls(base: string) {
  return {
    apiRoot: `${base}/api/v1`,
    documentation: `${base}/docs`,
    // The same guide as markdown; /docs answers it too, to Accept: text/markdown.
    documentationMarkdown: `${base}/docs.md`,
    openapi: `${base}/openapi.json`,
    apiCatalog: `${base}/.well-known/api-catalog`,
    llmsTxt: `${base}/llms.txt`,
    llmsFullTxt: `${base}/llms-full.txt`,
    agentSkills: `${base}/.well-known/agent-skills/index.json`,
    mcpEndpoint: `${base}/api/mcp`,
    mcpServerCard: `${base}/.well-known/mcp/server-card.json`,
    // The server-card extension's location (MCP endpoint + /server-card), which the AI catalog points at.
    mcpEndpointServerCard: `${base}/api/mcp/server-card`,
    aiCatalog: `${base}/.well-known/ai-catalog.json`,
    settings: `${base}/settings/api-keys`,
  };
}
