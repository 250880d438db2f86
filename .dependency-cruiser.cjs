// Import boundaries, checked by `npm run boundaries` (and so by `npm run check` in .ci/run).
// Paths are as dependency-cruiser resolves them: relative to the repository root, with `@/` aliases resolved
// through tsconfig.json and packages resolved to their files under node_modules.

// The modules that define what an MCP tool is and does: they are called by every transport, so they know none.
const TOOL_DEFINITIONS = "^lib/(mcp/tools[.]ts$|operations/)";
// The MCP SDK's stdio transport (its HTTP handler shares the package root with the types every module needs), and
// ours: the HTTP route, the era routing and the stdio server.
const MCP_TRANSPORTS = [
  "node_modules/@modelcontextprotocol/server/dist/stdio[.](d[.]mts|mjs)$",
  "^lib/mcp/(http|serve|stdio)[.]ts$",
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "An import cycle: modules that cannot be loaded, tested or understood one without the other. " +
        "Move what both need into a third module that imports neither.",
      from: {},
      to: { circular: true },
    },
    {
      name: "lib-not-to-app",
      severity: "error",
      comment: "lib/ is the core that app/ (Next's routes and pages) is built on; the core never reaches back into it.",
      from: { path: "^lib/" },
      to: { path: "^app/" },
    },
    {
      name: "transport-free-not-to-http",
      severity: "error",
      comment:
        "Data, auth, rate limiting, schemas, the database, lib/errors.ts and the MCP tool definitions serve " +
        "REST, MCP, the CLI and settings alike: they know no HTTP. Errors come from lib/errors.ts; lib/http " +
        "turns them into responses.",
      from: { path: ["^lib/(data|auth|ratelimit|schemas|db)/", "^lib/errors[.]ts$", TOOL_DEFINITIONS] },
      to: { path: "^lib/http/" },
    },
    {
      name: "mcp-tools-not-to-transport",
      severity: "error",
      comment:
        "MCP tool definitions run the same over Streamable HTTP and stdio: they import no transport, " +
        "not even through another module.",
      from: { path: TOOL_DEFINITIONS },
      to: { path: MCP_TRANSPORTS, reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: ["^lib/generated/", "^[.]next", "^bench/out/", "^test-results/", "^playwright-report/", "^coverage/"],
    },
    // Type-only imports count: a type from lib/http in lib/data still ties data to HTTP.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
