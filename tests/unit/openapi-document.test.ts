import { createConfig, lintFromString } from "@redocly/openapi-core";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { identitySchema } from "@/lib/schemas/identity";
import { apiRootSchema } from "@/lib/schemas/api-root";
import { reportListSchema, reportSchema } from "@/lib/schemas/reports";
import { teamListSchema } from "@/lib/schemas/team";
import { errorSchema } from "@/lib/schemas/common";
import { webhookPayloadSchema } from "@/lib/schemas/webhooks";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { DISCOVERY_RELATIONS, discoveryLinkHeader } from "@/lib/discovery/links";
import { renderReportMarkdown } from "@/lib/markdown/report";
import { renderBody } from "@/lib/webhooks/body";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";
import { getEnv } from "@/lib/env";
import { RATE_LIMIT_WINDOW_SECONDS } from "@/lib/ratelimit/policies";
import { expectMatchesOpenApi } from "@/tests/helpers/openapi-validate";
import { withEnv } from "@/tests/helpers/env";

const BASE = "https://sundown.acme.test";
const doc = buildOpenApiDocument(BASE) as any;
const op = (path: string) => doc.paths[path].get;
const resolveIn = (document: any, node: any): any => {
  if (!node?.$ref) return node;
  return resolveIn(
    document,
    node.$ref
      .slice(2)
      .split("/")
      .reduce((v: any, k: string) => v[k], document),
  );
};
const resolve = (node: any): any => resolveIn(doc, node);

const KEYED = {
  "/api/v1/me": { id: "getIdentity", scope: undefined, statuses: [200, 304, 400, 401, 405, 429, 500, 503] },
  "/api/v1/reports": {
    id: "listReports",
    scope: "reports:read",
    statuses: [200, 304, 400, 401, 403, 405, 429, 500, 503],
  },
  "/api/v1/reports/{id}": {
    id: "getReport",
    scope: "reports:read",
    statuses: [200, 304, 400, 401, 403, 404, 405, 429, 500, 503],
  },
  "/api/v1/team": { id: "listTeam", scope: "team:read", statuses: [200, 304, 400, 401, 403, 405, 429, 500, 503] },
} as const;

describe("OpenAPI document", () => {
  it("passes the Redocly recommended ruleset with no errors", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "/openapi.json", config });
    const errors = problems
      .filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // The one accepted warning: the service is not published under an open-source license.
    expect(problems.map((p) => p.ruleId)).toEqual(["info-license"]);
  });

  it("is OpenAPI 3.1 with absolute server and docs URLs from the base URL", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Sundown API", version: "1.0.0" });
    expect(doc.servers).toEqual([{ url: BASE, description: expect.any(String) }]);
    expect(doc.externalDocs.url).toBe(`${BASE}/docs`);
  });

  it("is built once per base URL", () => {
    expect(buildOpenApiDocument(BASE)).toBe(doc);
    expect(buildOpenApiDocument("https://other.test")).not.toBe(doc);
    expect((buildOpenApiDocument("https://other.test") as any).servers[0].url).toBe("https://other.test");
  });

  it("has exactly the five GET operations of the contract and the briefing", () => {
    const operations = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m} ${path} ${item[m].operationId}`),
    );
    expect(operations.sort()).toEqual(
      [
        "get /api/v1 getApiRoot",
        "get /api/v1/me getIdentity",
        "get /api/v1/reports listReports",
        "get /api/v1/reports/{id} getReport",
        "get /api/v1/briefing getBriefing",
        "get /api/v1/team listTeam",
      ].sort(),
    );
  });

  it("declares both security schemes", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
  });

  it("documents GET /api/v1 as public: no security, no rate-limit errors", () => {
    const root = op("/api/v1");
    expect(root.security).toEqual([]);
    expect(Object.keys(root.responses).sort()).toEqual(["200", "304", "405", "500"]);
    expect(root.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ApiRoot" });
    expect(Object.keys(root.responses["200"].headers)).toContain("Link");
  });

  it("describes GET /api/v1's Link header from its relations, with the header the server sends as example", () => {
    const link = resolve(op("/api/v1").responses["200"].headers.Link);
    for (const { rel, describes } of DISCOVERY_RELATIONS) {
      expect(link.description).toContain(`\`rel="${rel}"\`, ${describes}`);
    }
    expect(link.schema.example).toBe(discoveryLinkHeader("https://sundown.example.com"));
  });

  it("documents GET /api/v1/reports/{id} in markdown too, with Vary: Accept; the other operations in JSON only", () => {
    const report = resolve(op("/api/v1/reports/{id}").responses["200"]);
    expect(Object.keys(report.content)).toEqual(["application/json", "text/markdown"]);
    expect(report.content["text/markdown"].example).toBe(
      renderReportMarkdown(report.content["application/json"].example),
    );
    expect(resolve(report.headers.Vary).schema.example).toContain("Accept");
    for (const path of ["/api/v1/me", "/api/v1/reports", "/api/v1/team"]) {
      const response = resolve(op(path).responses["200"]);
      expect(Object.keys(response.content), path).toEqual(["application/json"]);
      expect(response.headers.Vary, path).toBeUndefined();
    }
  });

  for (const [path, expected] of Object.entries(KEYED)) {
    describe(`GET ${path}`, () => {
      it("requires a key (Bearer or X-API-Key) with the right scope, in security, description and x-required-scope", () => {
        const operation = op(path);
        expect(operation.operationId).toBe(expected.id);
        const scopes = expected.scope ? [expected.scope] : [];
        expect(operation.security).toEqual([{ bearerAuth: scopes }, { apiKeyHeader: scopes }]);
        expect(operation["x-required-scope"]).toBe(expected.scope);
        expect(operation.description).toContain(expected.scope ? `\`${expected.scope}\`` : "any valid API key");
      });

      it("lists every status the server can give, each error with the Error schema and an example", () => {
        const operation = op(path);
        expect(Object.keys(operation.responses).map(Number)).toEqual(expected.statuses);
        for (const status of expected.statuses.filter((s) => s >= 400)) {
          const response = resolve(operation.responses[status]);
          expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
          const example = response.content["application/json"].example;
          expect(errorSchema.parse(example)).toEqual(example);
          expect(resolve(response.headers["X-Request-Id"]).required).toBe(true);
        }
        expect(resolve(operation.responses[304]).content).toBeUndefined();
      });

      it("documents the rate-limit, ETag and request-id headers of a success", () => {
        const headers = op(path).responses["200"].headers;
        for (const name of ["X-Request-Id", "ETag", "Cache-Control", "RateLimit", "RateLimit-Policy"]) {
          expect(resolve(headers[name])).toMatchObject({ required: true, schema: { type: "string" } });
        }
      });
    });
  }

  it("documents the 429 with Retry-After and the rate-limit headers, the 403 with required_scope", () => {
    const tooMany = resolve(op("/api/v1/team").responses[429]);
    expect(Object.keys(tooMany.headers).sort()).toEqual([
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
      "X-Request-Id",
    ]);
    expect(resolve(tooMany.headers["Retry-After"]).required).toBe(true);
    // Each operation's 403 names the scope that operation needs.
    const forbidden = resolve(op("/api/v1/team").responses[403]);
    expect(forbidden.content["application/json"].example).toMatchObject({
      error: "insufficient_scope",
      required_scope: "team:read",
    });
    expect(resolve(op("/api/v1/reports").responses[403]).content["application/json"].example).toMatchObject({
      required_scope: "reports:read",
    });
    expect(doc.components.schemas.Error.properties.required_scope.enum).toEqual(["reports:read", "team:read"]);
    expect(doc.components.schemas.Error.required).toEqual(["error"]);
    expect(resolve(op("/api/v1/reports").responses[405]).headers.Allow).toBeDefined();
    expect(resolve(op("/api/v1/reports").responses[503]).headers["Retry-After"]).toBeDefined();
  });

  it("declares each keyed operation's rate limit (x-ratelimit) from the server's settings, and the public root's none", () => {
    for (const path of Object.keys(KEYED)) {
      expect(op(path)["x-ratelimit"]).toMatchObject({
        policy: "per-key",
        limit: getEnv().SUNDOWN_RATE_LIMIT,
        window_seconds: RATE_LIMIT_WINDOW_SECONDS,
        headers: ["RateLimit", "RateLimit-Policy"],
        on_limit: { status: 429, error: "rate_limited", retry_after_header: "Retry-After" },
        unauthenticated: { policy: "per-address", limit: getEnv().SUNDOWN_ADDRESS_RATE_LIMIT },
      });
      expect(op(path).description).toContain(`${getEnv().SUNDOWN_RATE_LIMIT} requests per rolling`);
    }
    expect(op("/api/v1")["x-ratelimit"]).toMatchObject({ policy: "none" });
  });

  it("shows the rate-limit headers with the configured quota, written as the server writes them", () =>
    withEnv({ SUNDOWN_RATE_LIMIT: "7", SUNDOWN_ADDRESS_RATE_LIMIT: "5" }, async () => {
      const configured = buildOpenApiDocument("https://quota.test") as any;
      const team = configured.paths["/api/v1/team"].get;
      expect(team["x-ratelimit"].limit).toBe(7);
      const header = (response: any, name: string) =>
        resolveIn(configured, resolveIn(configured, response).headers[name]);
      expect(header(team.responses["200"], "RateLimit-Policy").schema.example).toBe('"per-key";q=7;w=60');
      expect(header(team.responses["200"], "RateLimit").schema.example).toMatch(/^"per-key";r=4;t=\d+$/);
      expect(header(team.responses["401"], "RateLimit-Policy").schema.example).toBe('"per-address";q=5;w=60');
    }));

  it("documents the list's parameters (limit integer 1..50 default 14; filters; cursor), all optional, and id (uuid, required)", () => {
    const parameters = op("/api/v1/reports").parameters;
    expect(parameters.map((p: { name: string }) => p.name)).toEqual([
      "limit",
      "since",
      "until",
      "scope",
      "scope_target_id",
      "q",
      "cursor",
      "expand",
    ]);
    expect(parameters.every((p: { in: string; required?: boolean }) => p.in === "query" && p.required !== true)).toBe(
      true,
    );
    expect(parameters[0].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 50, default: 14 });
    expect(parameters[3].schema).toMatchObject({ type: "string", enum: ["org", "lead", "member"] });
    expect(parameters[4].schema).toMatchObject({ type: "string", format: "uuid" });
    expect(parameters[1].schema.examples).toContain("2026-11-16");
    // Typed clients and mock servers can pre-check what the server would refuse: the shapes of since, until and
    // cursor, and the cursor's length, each agreeing with what the server accepts.
    const schemaOf = (name: string) => parameters.find((p: { name: string }) => p.name === name).schema;
    for (const name of ["since", "until"]) {
      const pattern = new RegExp(schemaOf(name).pattern);
      for (const good of ["2026-11-16", "2026-11-16T09:00:00+01:00", "2026-11-16T09:00Z", "2026-11-16T09:00:00.123Z"]) {
        expect(pattern.test(good), good).toBe(true);
      }
      for (const bad of ["yesterday", "2026-11-16T09:00:00", "16/11/2026", "2026-11-16T09:00:00.1234Z"]) {
        expect(pattern.test(bad), bad).toBe(false);
      }
    }
    const cursor = schemaOf("cursor");
    expect(cursor.maxLength).toBe(423);
    const cursorPattern = new RegExp(cursor.pattern);
    expect(cursorPattern.test(`${"a".repeat(400)}.${"b".repeat(22)}`)).toBe(true);
    expect(cursorPattern.test("abc")).toBe(false);
    expect(
      op("/api/v1/team").parameters.map((p: { name: string; schema: { type: string } }) => [p.name, p.schema.type]),
    ).toEqual([
      ["role", "string"],
      ["active", "boolean"],
    ]);
    expect(op("/api/v1/reports/{id}").parameters).toEqual([
      expect.objectContaining({
        in: "path",
        name: "id",
        required: true,
        schema: expect.objectContaining({ type: "string", format: "uuid" }),
      }),
    ]);
  });

  it("documents the next page: next_cursor in the body and the Link header", () => {
    const list = resolve(op("/api/v1/reports").responses["200"]);
    expect(Object.keys(list.headers)).toContain("Link");
    expect(doc.components.schemas.ReportList.required).toContain("next_cursor");
  });

  it("tells machines how the list pages (x-pagination), and only the list", () => {
    const list = op("/api/v1/reports");
    expect(list["x-pagination"]).toMatchObject({
      style: "cursor",
      cursor_parameter: "cursor",
      next_cursor_field: "next_cursor",
      page_size_parameter: "limit",
      next_link: { header: "Link", rel: "next" },
    });
    const names = list.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([list["x-pagination"].cursor_parameter, list["x-pagination"].page_size_parameter]),
    );
    expect(doc.components.schemas.ReportList.properties).toHaveProperty(list["x-pagination"].next_cursor_field);
    for (const path of ["/api/v1", "/api/v1/me", "/api/v1/reports/{id}", "/api/v1/team"]) {
      expect(op(path)["x-pagination"], path).toBeUndefined();
    }
  });

  it("generates its schemas from the runtime zod schemas", () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas).sort()).toEqual(
      [
        "ApiRoot",
        "Briefing",
        "Error",
        "Identity",
        "MemberUpdatedEvent",
        "Organization",
        "PingEvent",
        "Report",
        "ReportContent",
        "ReportDeletedEvent",
        "ReportList",
        "ReportPublishedEvent",
        "ReportSummary",
        "ReportUpdatedEvent",
        "TeamList",
        "TeamMember",
      ].sort(),
    );
    expect(Object.keys(schemas.TeamMember.properties)).toEqual(Object.keys(teamListSchema.shape.members.element.shape));
    expect(schemas.TeamMember.additionalProperties).toBe(false);
    expect(schemas.ReportSummary.properties.generated_at.format).toBe("date-time");
  });

  it("carries demo-shaped examples that the runtime schemas accept and the document validates", () => {
    const cases = [
      ["/api/v1", apiRootSchema],
      ["/api/v1/me", identitySchema],
      ["/api/v1/reports", reportListSchema],
      ["/api/v1/reports/{id}", reportSchema],
      ["/api/v1/team", teamListSchema],
    ] as const;
    for (const [path, schema] of cases) {
      const example = op(path).responses["200"].content["application/json"].example;
      expect(schema.parse(example)).toEqual(example);
      expectMatchesOpenApi("GET", path, 200, example);
    }
    expect(op("/api/v1/team").responses["200"].content["application/json"].example.members[0].name).toBe("Maya Chen");
    expect(op("/api/v1").responses["200"].content["application/json"].example.openapi).toBe(`${BASE}/openapi.json`);
  });

  describe("webhooks", () => {
    const webhook = (type: string) => doc.webhooks[type].post;

    /** Validates a value against a schema of the document, its $refs resolved within it (JSON Schema 2020-12). */
    function validates(schema: object, value: unknown): string[] {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      const id = "https://sundown.invalid/openapi.json";
      ajv.addSchema({ $id: id, components: { schemas: doc.components.schemas } });
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${id}#/`)));
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    }

    it("describes every event of the catalog and ping, each one POST, and no path beyond the GET operations", () => {
      expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES, "ping"]);
      expect(Object.keys(doc.webhooks).sort()).toEqual([
        "member.updated",
        "ping",
        "report.deleted",
        "report.published",
        "report.updated",
      ]);
      for (const item of Object.values<any>(doc.webhooks)) expect(Object.keys(item)).toEqual(["post"]);
      for (const item of Object.values<any>(doc.paths)) expect(Object.keys(item)).toEqual(["get"]);
    });

    it("each carries the three Standard Webhooks headers, a JSON body, and what each answer means", () => {
      for (const type of ["report.published", "ping"]) {
        const operation = webhook(type);
        expect(operation.security).toEqual([]);
        const headers = operation.parameters.map(resolve);
        expect(headers.map((h: any) => [h.in, h.name, h.required])).toEqual([
          ["header", "webhook-id", true],
          ["header", "webhook-timestamp", true],
          ["header", "webhook-signature", true],
        ]);
        expect(operation.requestBody.required).toBe(true);
        expect(Object.keys(operation.requestBody.content)).toEqual(["application/json"]);
        expect(Object.keys(operation.responses).sort()).toEqual(["2XX", "410", "default"]);
        expect(operation.responses["410"].description).toMatch(/disables the endpoint/);
      }
      expect(webhook("report.published").requestBody.content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/ReportPublishedEvent",
      });
      expect(webhook("ping").requestBody.content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/PingEvent",
      });
    });

    it("reuses the API's ReportSummary for the report in report.published, not a copy of its fields", () => {
      const event = doc.components.schemas.ReportPublishedEvent;
      expect(event.properties.data.properties.report).toEqual({ $ref: "#/components/schemas/ReportSummary" });
      expect(doc.components.schemas.ReportList.properties.reports.items).toEqual({
        $ref: "#/components/schemas/ReportSummary",
      });
      expect(event.properties.type).toMatchObject({ const: "report.published" });
      expect(event.required).toEqual(["id", "type", "timestamp", "organization_id", "data"]);
    });

    it("has examples the runtime schema accepts and the document validates", () => {
      for (const type of ["report.published", "ping"]) {
        const media = webhook(type).requestBody.content["application/json"];
        expect(webhookPayloadSchema.parse(media.example)).toEqual(media.example);
        expect(media.example.type).toBe(type);
        expect(validates(media.schema, media.example)).toEqual([]);
      }
      expect(webhook("report.published").requestBody.content["application/json"].example.data.url).toBe(
        `${BASE}/api/v1/reports/${doc.paths["/api/v1/reports"].get.responses["200"].content["application/json"].example.reports[0].id}`,
      );
    });

    it("validates the bodies Sundown renders, and refuses one that strays from them", () => {
      const schemaOf = (type: string) => webhook(type).requestBody.content["application/json"].schema;
      const base = {
        id: "8c0d3a52-6f1e-4b7a-9d24-1e5f7c3b9a60",
        organizationId: "2a1e677f-c86b-43d3-a724-cede083932b9",
      };
      const published = JSON.parse(
        renderBody(
          {
            ...base,
            type: "report.published",
            createdAt: new Date("2026-11-21T17:31:04.512Z"),
            data: {
              report: {
                id: "e42fd8ad-d8e6-4bbe-8b1c-b56add297bd6",
                scope: "org",
                scope_target_id: null,
                generated_at: "2026-11-21T17:30:00.000Z",
                headline: "Acme Robotics: 1 shipped",
              },
              url: "/api/v1/reports/e42fd8ad-d8e6-4bbe-8b1c-b56add297bd6",
            },
          },
          BASE,
        ),
      );
      const ping = JSON.parse(
        renderBody(
          {
            ...base,
            type: "ping",
            createdAt: new Date(),
            data: { endpoint_id: "e2d7a9b4-1c63-4f05-8b9e-3a6f0d2c7e18", message: "A test delivery from Sundown." },
          },
          BASE,
        ),
      );
      expect(validates(schemaOf("report.published"), published)).toEqual([]);
      expect(validates(schemaOf("ping"), ping)).toEqual([]);
      expect(webhookPayloadSchema.parse(published)).toEqual(published);
      expect(validates(schemaOf("ping"), published)).not.toEqual([]);
      const withEmail = {
        ...published,
        data: { ...published.data, report: { ...published.data.report, email: "a@b.c" } },
      };
      expect(validates(schemaOf("report.published"), withEmail)).not.toEqual([]);
      expect(
        validates(schemaOf("report.published"), { ...published, data: { ...published.data, url: "/api/v1/x" } }),
      ).not.toEqual([]);
    });
  });
});
