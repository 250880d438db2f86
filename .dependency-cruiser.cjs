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

// lib/ in layers, bottom first. A module imports its own layer and those below it, never one above: what sits
// low is shared by everything above it, so an upward import ties every caller to what it reaches, and that is
// where cycles start. When two layers need one thing, it moves down to the lower one, never into an exception.
const LAYERS = [
  {
    name: "foundation",
    path: ["^lib/(env|log|project-root|header-names|api-version|public-urls|webhook-allow-list)[.]ts$", "^lib/text/"],
    why: "Settings, logging, the names the outside world knows (header names, the API version, public addresses), and what makes text safe to show (invisible characters, bounded excerpts of input): read everywhere, built on nothing of ours.",
  },
  {
    name: "credentials",
    path: "^lib/auth/",
    why: "What a key, a scope and a password are (format, hashing, the server secret): stored by lib/data, checked by the layers above it; nothing here reads the database.",
  },
  {
    name: "contract",
    path: ["^lib/errors[.]ts$", "^lib/schemas/"],
    why: "The words every surface answers in: the error table and the zod schemas of resources, inputs and webhook events.",
  },
  {
    name: "database",
    path: "^lib/db/",
    why: "The client: it opens, migrates and reads. What is stored, and the demo data a new database starts with, belong to the layers above.",
  },
  {
    name: "data",
    path: "^lib/data/",
    why: "Queries, each scoped by organization, over the client below.",
  },
  {
    name: "services",
    path: ["^lib/admission/verify-", "^lib/(session|ratelimit|usage|webhooks|demo|mail|generation)/"],
    why: "What is built on the data and serves every surface: key verification, web sessions, rate limits, usage counts, webhook delivery, report generation, e-mail, the demo data.",
  },
  {
    name: "rendering",
    path: "^lib/markdown/",
    why: "Answers as text and markdown, for REST and MCP alike: each operation's module picks its own.",
  },
  {
    name: "operations",
    path: "^lib/operations/",
    why: "One module per operation (its definition, answer, renderings and example) and their list, for REST and MCP alike.",
  },
  {
    name: "admission",
    path: "^lib/admission/admit[.]ts$",
    why: "A keyed call admitted and answered, for REST and MCP alike: the key's verification and budget below it, the operation's answer beside it; no transport.",
  },
  {
    name: "digests",
    path: "^lib/digests/",
    why: "What a caller asks of several operations at once, through a source that answers them for the caller: pages of reports walked within a bound, a day's reports, a period's briefing with the instructions to summarise it. MCP's prompts and resources register them; any surface may serve them.",
  },
  {
    name: "api-client",
    path: "^lib/api-client/",
    why: "A client of Sundown's REST API: its settings (SUNDOWN_API_KEY, SUNDOWN_URL), the key check at start and the operations answered over HTTP, for the stdio MCP server and any other client.",
  },
  {
    name: "surfaces",
    path: "^lib/(http|settings|cli|ingest|setup)/",
    why: "The edges a caller speaks to: REST over HTTP, the ingest endpoint, the settings page's actions, the CLI's commands, the first-run /setup page.",
  },
  {
    name: "mcp",
    path: "^lib/mcp/",
    why: "MCP, over Streamable HTTP (through lib/http) and stdio.",
  },
  {
    name: "documents",
    path: "^lib/(discovery|openapi)/",
    why: "The documents that describe every surface: discovery files, llms.txt, the AI catalog (which carries the MCP server card) and the OpenAPI document.",
  },
  {
    name: "process",
    path: "^lib/(doctor|server)/",
    why: "Start-up and `sundown doctor`: they open the database, start the command socket and check what lies below.",
  },
];
const pathsOf = (layers) => layers.flatMap((layer) => layer.path);

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
      name: "lib-in-a-layer",
      severity: "error",
      comment:
        "Every module of lib/ belongs to one of LAYERS, so the layer rules see it: a new folder or file at " +
        "lib/'s top takes its place there.",
      from: { path: "^lib/", pathNot: pathsOf(LAYERS) },
      to: {},
    },
    ...LAYERS.slice(0, -1).map((layer, index) => ({
      name: `layer-${layer.name}-not-up`,
      severity: "error",
      comment: `${layer.why} It imports no layer above it (${LAYERS.slice(index + 1)
        .map((above) => above.name)
        .join(", ")}).`,
      from: { path: layer.path },
      to: { path: pathsOf(LAYERS.slice(index + 1)) },
    })),
    {
      name: "transport-free-not-to-http",
      severity: "error",
      comment:
        "Admission, data, auth, rate limiting, schemas, the database, lib/errors.ts and the MCP tool definitions serve " +
        "REST, MCP, the CLI and settings alike: they know no HTTP. Errors come from lib/errors.ts; lib/http " +
        "turns them into responses.",
      from: { path: ["^lib/(admission|data|auth|ratelimit|schemas|db)/", "^lib/errors[.]ts$", TOOL_DEFINITIONS] },
      to: { path: "^lib/http/" },
    },
    {
      name: "operation-definitions-not-to-server-data",
      severity: "error",
      comment:
        "What describes an operation (lib/operations/table.ts and all it reaches: the operations' modules, parameters, " +
        "renderings, examples) is read by the stdio package, a client of the REST API that must ship none of the " +
        "server's database code, settings or secret. How an operation is answered on the server goes beside it, in " +
        "lib/operations/<operation>.answer.ts, listed in lib/operations/answers.ts.",
      from: { path: "^lib/operations/table[.]ts$" },
      to: { path: ["^lib/(data|db)/", "^lib/(env|auth/server-secret)[.]ts$"], reachable: true },
    },
    {
      name: "api-client-not-to-mcp-sdk",
      severity: "error",
      comment:
        "The API client speaks HTTP and JSON, not MCP: the stdio server wraps it, and any other client can use it " +
        "without carrying the SDK.",
      from: { path: "^lib/api-client/" },
      to: { path: "node_modules/@modelcontextprotocol/" },
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
      path: [
        "^lib/generated/",
        "(^|/)[.]next",
        "^bench/out/",
        "^packages/mcp-stdio/dist/",
        "^test-results/",
        "^playwright-report/",
        "^coverage/",
      ],
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
