import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

// The MCP revisions Sundown serves, said once for the server card and the errors that name them.

/**
 * The 2026-07-28 era's revisions, served by the SDK's handler (server/discover's supportedVersions). The SDK
 * does not export this list; tests/integration/mcp-eras.test.ts holds it to the handler's own answer.
 */
export const MODERN_REVISIONS: readonly string[] = ["2026-07-28"];

/** The 2025 family with Streamable HTTP (2025-03-26 onwards; older revisions spoke HTTP+SSE), opened by initialize. */
export const LEGACY_REVISIONS = SUPPORTED_PROTOCOL_VERSIONS.filter(
  (v) => v >= "2025-03-26" && v < MODERN_REVISIONS[0]!,
);
