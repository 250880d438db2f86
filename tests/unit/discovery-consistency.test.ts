import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/lib/discovery/api-root";
import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { buildOpenApiDocument } from "@/lib/openapi/document";

// One list of endpoints, five places that must agree: ApiRoot.endpoints, the OpenAPI paths, the route files
// under app/api/v1, the MCP tools, and the README. Adding a route without documenting it fails here.

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api/v1");
const ROOT_PATH = "/api/v1";

/** The MCP tool that mirrors each ApiRoot endpoint (api-spec.md: identity, report list, single report, team). */
const TOOL_FOR_ENDPOINT: Record<keyof typeof ENDPOINTS, string> = {
  identity: "whoami",
  list_reports: "list_reports",
  get_report: "get_report",
  team: "list_team",
};

const endpointPaths = Object.values(ENDPOINTS).map((e) => e.replace(/^GET /, ""));
const doc = buildOpenApiDocument("https://sundown.test") as any;

/** Route files under app/api/v1 as OpenAPI path templates: reports/[id]/route.ts → /api/v1/reports/{id}. */
function routeFiles(dir = API_DIR): { template: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    if (!/^route\.(ts|tsx|js)$/.test(entry.name)) return [];
    const relative = path.relative(API_DIR, dir).split(path.sep).filter(Boolean);
    const template = [ROOT_PATH, ...relative.map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))].join("/");
    return [{ template, file: full }];
  });
}

async function mcpTools(): Promise<{ name: string; scope?: string }[] | undefined> {
  const file = path.join(ROOT, "lib/mcp/tools.ts");
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { TOOLS?: { name: string; scope?: string }[] };
  return module.TOOLS;
}

describe("the endpoints agree everywhere", () => {
  it("ApiRoot.endpoints names the contract's four operations", () => {
    expect(ENDPOINTS).toEqual({
      identity: "GET /api/v1/me",
      list_reports: "GET /api/v1/reports",
      get_report: "GET /api/v1/reports/{id}",
      team: "GET /api/v1/team",
    });
  });

  it("OpenAPI documents exactly the ApiRoot endpoints plus GET /api/v1, all as GET", () => {
    const operations = Object.entries<any>(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(operations.sort()).toEqual([`GET ${ROOT_PATH}`, ...Object.values(ENDPOINTS)].sort());
  });

  it("every route file under app/api/v1 is an endpoint in ApiRoot and OpenAPI, and serves GET", () => {
    const routes = routeFiles();
    expect(routes.map((r) => r.template).sort()).toEqual([ROOT_PATH, ...endpointPaths].sort());
    for (const { file } of routes) {
      expect(readFileSync(file, "utf8"), file).toMatch(/export (const|async function|function) GET\b|export \{[^}]*\bGET\b/);
    }
  });

  it("the MCP tools are the four twins of the endpoints, with the same scopes", async () => {
    const tools = await mcpTools();
    const names = tools?.map((t) => t.name) ?? ["whoami", "list_reports", "get_report", "list_team"];
    expect([...names].sort()).toEqual(Object.values(TOOL_FOR_ENDPOINT).sort());
    for (const [endpoint, toolName] of Object.entries(TOOL_FOR_ENDPOINT)) {
      const tool = tools?.find((t) => t.name === toolName);
      if (!tool) continue;
      const operation = doc.paths[ENDPOINTS[endpoint as keyof typeof ENDPOINTS].replace(/^GET /, "")].get;
      expect(tool.scope, toolName).toBe(operation["x-required-scope"]);
    }
  });

  it("README.md mentions every endpoint as `GET <path>`", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const missing = [`GET ${ROOT_PATH}`, ...Object.values(ENDPOINTS)].filter((e) => !readme.includes(e));
    expect(missing).toEqual([]);
  });

  it("llms.txt mentions every endpoint and every MCP tool", () => {
    const text = buildLlmsTxt("https://sundown.test");
    for (const e of Object.values(ENDPOINTS)) expect(text).toContain(e);
    for (const t of Object.values(TOOL_FOR_ENDPOINT)) expect(text).toContain(`\`${t}\``);
  });
});
