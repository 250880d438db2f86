import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getApiRoot } from "@/lib/discovery/api-root";
import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { TOOLS } from "@/lib/mcp/tools";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { endpointOf, KEYED_OPERATIONS, OPERATIONS, statusesOf } from "@/lib/operations/table";
import { apiRootSchema, LISTED_ENDPOINTS } from "@/lib/schemas/api-root";

// The operations table (lib/operations/table.ts) is the one declaration of each operation. These tests hold it
// to the contract and check that every surface reads it: GET /api/v1, OpenAPI, the route files, the MCP tools,
// llms.txt and the README. Adding a route without declaring it fails here.

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api/v1");
const BASE = "https://sundown.test";

const doc = buildOpenApiDocument(BASE) as unknown as {
  paths: Record<string, Record<string, { "x-required-scope"?: string; responses: Record<string, unknown> }>>;
};

/** Route files under app/api/v1 as OpenAPI path templates: reports/[id]/route.ts → /api/v1/reports/{id}. */
function routeFiles(dir = API_DIR): { template: string; source: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    if (!/^route\.(ts|tsx|js)$/.test(entry.name)) return [];
    const relative = path.relative(API_DIR, dir).split(path.sep).filter(Boolean);
    const template = ["/api/v1", ...relative.map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))].join("/");
    return [{ template, source: readFileSync(full, "utf8") }];
  });
}

describe("the operations table", () => {
  it("declares the contract's four keyed operations and the briefing, with their scopes and MCP tools, and the public root", () => {
    expect(KEYED_OPERATIONS.map((o) => [o.name, endpointOf(o), o.scope, o.tool?.name])).toEqual([
      ["identity", "GET /api/v1/me", undefined, "whoami"],
      ["list_reports", "GET /api/v1/reports", "reports:read", "list_reports"],
      ["get_report", "GET /api/v1/reports/{id}", "reports:read", "get_report"],
      ["briefing", "GET /api/v1/briefing", "reports:read", "get_briefing"],
      ["team", "GET /api/v1/team", "team:read", "list_team"],
    ]);
    expect([endpointOf(OPERATIONS.root), OPERATIONS.root.access, OPERATIONS.root.tool]).toEqual([
      "GET /api/v1",
      "public",
      undefined,
    ]);
  });

  it("lists 400 on every keyed operation (unknown parameters are refused), and 403 exactly where it needs a scope", () => {
    for (const operation of Object.values(OPERATIONS)) {
      const statuses = statusesOf(operation);
      expect(statuses.includes(400), operation.name).toBe(operation.access === "key");
      expect(statuses.includes(403), operation.name).toBe(operation.scope !== undefined);
    }
  });
});

describe("every surface reads the table", () => {
  it("GET /api/v1's endpoints are the contract's four, read from the table", () => {
    expect(getApiRoot(BASE).endpoints).toEqual({
      identity: "GET /api/v1/me",
      list_reports: "GET /api/v1/reports",
      get_report: "GET /api/v1/reports/{id}",
      team: "GET /api/v1/team",
    });
  });

  it("GET /api/v1 leaves out the operations the contract does not name: the briefing", () => {
    const listed = Object.keys(apiRootSchema.shape.endpoints.shape);
    expect(listed).toEqual([...LISTED_ENDPOINTS]);
    const unlisted = KEYED_OPERATIONS.filter((operation) => !listed.includes(operation.name));
    expect(unlisted.map((operation) => endpointOf(operation))).toEqual(["GET /api/v1/briefing"]);
  });

  it("OpenAPI documents exactly the table's operations, all GET, with their scopes and statuses", () => {
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.sort()).toEqual(Object.values(OPERATIONS).map(endpointOf).sort());
    for (const operation of Object.values(OPERATIONS)) {
      const documentedOperation = doc.paths[operation.path]!.get!;
      expect(documentedOperation["x-required-scope"], operation.name).toBe(operation.scope);
      expect(Object.keys(documentedOperation.responses).map(Number), operation.name).toEqual(statusesOf(operation));
    }
  });

  it("every route file under app/api/v1 is a table operation, and keyed ones are served by operationRoute", () => {
    const routes = routeFiles();
    expect(routes.map((r) => r.template).sort()).toEqual(
      Object.values(OPERATIONS)
        .map((o) => o.path)
        .sort(),
    );
    for (const operation of KEYED_OPERATIONS) {
      const route = routes.find((r) => r.template === operation.path)!;
      expect(route.source, operation.path).toContain(`export const GET = operationRoute("${operation.name}");`);
    }
  });

  it("the MCP tools are the keyed operations' twins, in the table's order", () => {
    expect(TOOLS.map((t) => [t.name, t.operation.name, t.operation.scope])).toEqual(
      KEYED_OPERATIONS.map((o) => [o.tool!.name, o.name, o.scope]),
    );
  });

  it("README.md mentions every operation as `GET <path>`", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const missing = Object.values(OPERATIONS)
      .map(endpointOf)
      .filter((e) => !readme.includes(e));
    expect(missing).toEqual([]);
  });

  it("llms.txt mentions every operation, its scope and every MCP tool", () => {
    const text = buildLlmsTxt(BASE);
    for (const operation of Object.values(OPERATIONS)) {
      const line = text.split("\n").find((l) => l.startsWith(`- \`${endpointOf(operation)}\``));
      expect(line, operation.name).toBeDefined();
      if (operation.scope) expect(line).toContain(operation.scope);
    }
    for (const tool of TOOLS) expect(text).toContain(`\`${tool.name}\``);
  });
});
