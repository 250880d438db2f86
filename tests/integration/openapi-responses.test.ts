import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getRoot, POST as postRoot } from "@/app/api/v1/route";
import { GET as getMe, POST as postMe } from "@/app/api/v1/me/route";
import { GET as listReports, DELETE as deleteReports } from "@/app/api/v1/reports/route";
import { GET as getReport, PATCH as patchReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listTeam, PUT as putTeam } from "@/app/api/v1/team/route";
import { resetEnvCache } from "@/lib/env";
import { identityAnswer } from "@/lib/operations/identity.answer";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { bearer, mintKey } from "../helpers/keys";
import { expectMatchesOpenApi } from "../helpers/openapi-validate";
import { call } from "../helpers/request";

// GET /api/v1/me's answer (identityAnswer), from the key alone, is what the pipeline tests below make fail.

// Every status each REST endpoint can answer with, produced by the real handlers and checked against the
// published OpenAPI document: status listed, body valid (ajv, JSON Schema 2020-12), required headers present.

type Handler = typeof getMe;
type Result = Awaited<ReturnType<typeof call>>;

const MISSING_UUID = "00000000-0000-4000-8000-000000000000";

function check(path: string, res: Result, status: number) {
  expect(res.status).toBe(status);
  expectMatchesOpenApi("GET", path, res.status, res.status === 304 ? undefined : res.body, res.headers);
}

/** What the published document shows for an operation's answer: its example body, and its headers' examples. */
function documented(path: string, status: number) {
  const doc = buildOpenApiDocument("http://localhost:3000") as any;
  const resolve = (node: any): any =>
    node?.$ref
      ? resolve(
          node.$ref
            .slice(2)
            .split("/")
            .reduce((v: any, k: string) => v[k], doc),
        )
      : node;
  const response = resolve(doc.paths[path].get.responses[status]);
  const header = (name: string) => resolve(response.headers[name])?.schema.example;
  return { body: response.content?.["application/json"].example, header };
}

/** An error body as a client compares it with the documented one: without the id of its own request. */
function withoutRequestId({ request_id: _, ...body }: Record<string, unknown>) {
  return body;
}

function expectDocumentedError(path: string, res: Result) {
  expect(withoutRequestId(res.body), `${path} ${res.status}`).toEqual(
    withoutRequestId(documented(path, res.status).body),
  );
}

let key: string;
let reportId: string;

beforeAll(async () => {
  key = (await mintKey("acme")).key;
  const list = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(key) });
  reportId = list.body.reports[0].id;
});

describe("every REST response matches the OpenAPI document", () => {
  const keyed: { path: string; url: () => string; handler: Handler; params?: () => Record<string, string> }[] = [
    { path: "/api/v1/me", url: () => "/api/v1/me", handler: getMe },
    { path: "/api/v1/reports", url: () => "/api/v1/reports?limit=50", handler: listReports },
    {
      path: "/api/v1/reports/{id}",
      url: () => `/api/v1/reports/${reportId}`,
      handler: getReport,
      params: () => ({ id: reportId }),
    },
    { path: "/api/v1/team", url: () => "/api/v1/team", handler: listTeam },
  ];

  it("GET /api/v1: 200, then 304 with the ETag", async () => {
    const first = await call(getRoot, "/api/v1");
    check("/api/v1", first, 200);
    const again = await call(getRoot, "/api/v1", { headers: { "If-None-Match": first.headers.get("etag")! } });
    check("/api/v1", again, 304);
    expect(again.text).toBe("");
  });

  for (const route of keyed) {
    it(`GET ${route.path}: 200 with Bearer and X-API-Key, 304 with the ETag, 401 without a key`, async () => {
      const ok = await call(route.handler, route.url(), { headers: bearer(key) }, route.params?.());
      check(route.path, ok, 200);
      const viaHeader = await call(route.handler, route.url(), { headers: { "X-API-Key": key } }, route.params?.());
      check(route.path, viaHeader, 200);
      const notModified = await call(
        route.handler,
        route.url(),
        { headers: { ...bearer(key), "If-None-Match": ok.headers.get("etag")! } },
        route.params?.(),
      );
      check(route.path, notModified, 304);
      const anonymous = await call(route.handler, route.url(), {}, route.params?.());
      check(route.path, anonymous, 401);
      const badKey = await call(route.handler, route.url(), { headers: bearer("sdn_sk_nope") }, route.params?.());
      check(route.path, badKey, 401);
    });
  }

  it("403 insufficient_scope with required_scope, for each scoped endpoint", async () => {
    const teamOnly = (await mintKey("acme", ["team:read"])).key;
    const reportsOnly = (await mintKey("acme", ["reports:read"])).key;
    const reports = await call(listReports, "/api/v1/reports", { headers: bearer(teamOnly) });
    check("/api/v1/reports", reports, 403);
    expect(reports.body.required_scope).toBe("reports:read");
    const report = await call(
      getReport,
      `/api/v1/reports/${reportId}`,
      { headers: bearer(teamOnly) },
      { id: reportId },
    );
    check("/api/v1/reports/{id}", report, 403);
    const team = await call(listTeam, "/api/v1/team", { headers: bearer(reportsOnly) });
    check("/api/v1/team", team, 403);
    expect(team.body.required_scope).toBe("team:read");
  });

  it("400 invalid_parameter for a bad limit, a bad id and an unknown parameter; 404 not_found for a missing report", async () => {
    for (const limit of ["0", "51", "abc", "5.0"]) {
      check(
        "/api/v1/reports",
        await call(listReports, `/api/v1/reports?limit=${limit}`, { headers: bearer(key) }),
        400,
      );
    }
    check(
      "/api/v1/reports/{id}",
      await call(getReport, "/api/v1/reports/not-a-uuid", { headers: bearer(key) }, { id: "not-a-uuid" }),
      400,
    );
    // A parameter the operation does not define.
    check("/api/v1/reports", await call(listReports, "/api/v1/reports?member_id=x", { headers: bearer(key) }), 400);
    check(
      "/api/v1/reports/{id}",
      await call(getReport, `/api/v1/reports/${reportId}?format=md`, { headers: bearer(key) }, { id: reportId }),
      400,
    );
    check("/api/v1/team", await call(listTeam, "/api/v1/team?roles=lead", { headers: bearer(key) }), 400);
    const missing = await call(
      getReport,
      `/api/v1/reports/${MISSING_UUID}`,
      { headers: bearer(key) },
      { id: MISSING_UUID },
    );
    check("/api/v1/reports/{id}", missing, 404);
    expect(missing.body.error).toBe("not_found");
  });

  it("each error's documented example is, word for word, the body the server answers for that refusal", async () => {
    const teamOnly = bearer((await mintKey("acme", ["team:read"])).key);
    const reportsOnly = bearer((await mintKey("acme", ["reports:read"])).key);
    const answers: [string, Result][] = [
      // 400: the example is the operation's first parameter refused (or, without parameters, one it does not define).
      ["/api/v1/me", await call(getMe, "/api/v1/me?limit=x", { headers: bearer(key) })],
      ["/api/v1/reports", await call(listReports, "/api/v1/reports?limit=x", { headers: bearer(key) })],
      ["/api/v1/reports/{id}", await call(getReport, "/api/v1/reports/x", { headers: bearer(key) }, { id: "x" })],
      ["/api/v1/team", await call(listTeam, "/api/v1/team?role=x", { headers: bearer(key) })],
      ["/api/v1/me", await call(getMe, "/api/v1/me")],
      ["/api/v1/team", await call(listTeam, "/api/v1/team")],
      ["/api/v1/reports", await call(listReports, "/api/v1/reports", { headers: teamOnly })],
      [
        "/api/v1/reports/{id}",
        await call(getReport, `/api/v1/reports/${reportId}`, { headers: teamOnly }, { id: reportId }),
      ],
      ["/api/v1/team", await call(listTeam, "/api/v1/team", { headers: reportsOnly })],
      [
        "/api/v1/reports/{id}",
        await call(getReport, `/api/v1/reports/${MISSING_UUID}`, { headers: bearer(key) }, { id: MISSING_UUID }),
      ],
      ["/api/v1", await call(postRoot, "/api/v1", { method: "POST" })],
      ["/api/v1/team", await call(putTeam, "/api/v1/team", { method: "PUT", headers: bearer(key) })],
    ];
    expect(answers.map(([, res]) => res.status)).toEqual([400, 400, 400, 400, 401, 401, 403, 403, 403, 404, 405, 405]);
    for (const [path, res] of answers) expectDocumentedError(path, res);
    const ok = await call(listTeam, "/api/v1/team", { headers: bearer(key) });
    expect(ok.headers.get("ratelimit-policy")).toBe(documented("/api/v1/team", 200).header("RateLimit-Policy"));
  });

  it("405 method_not_allowed with Allow on every path", async () => {
    const cases: [string, Handler][] = [
      ["/api/v1", postRoot],
      ["/api/v1/me", postMe],
      ["/api/v1/reports", deleteReports],
      ["/api/v1/reports/{id}", patchReport],
      ["/api/v1/team", putTeam],
    ];
    for (const [path, handler] of cases) {
      const res = await call(handler, path.replace("{id}", MISSING_UUID), { method: "POST", headers: bearer(key) });
      check(path, res, 405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
    }
  });

  describe("429 rate_limited", () => {
    afterEach(() => {
      delete process.env.SUNDOWN_RATE_LIMIT;
      resetEnvCache();
    });

    it("with RateLimit, RateLimit-Policy and Retry-After once a key's budget is spent", async () => {
      process.env.SUNDOWN_RATE_LIMIT = "2";
      resetEnvCache();
      const limited = (await mintKey("acme")).key;
      check("/api/v1/team", await call(listTeam, "/api/v1/team", { headers: bearer(limited) }), 200);
      check("/api/v1/me", await call(getMe, "/api/v1/me", { headers: bearer(limited) }), 200);
      const refused = await call(listReports, "/api/v1/reports", { headers: bearer(limited) });
      check("/api/v1/reports", refused, 429);
      expect(refused.body.error).toBe("rate_limited");
      expectDocumentedError("/api/v1/reports", refused);
      expect(refused.headers.get("ratelimit-policy")).toBe('"per-key";q=2;w=60');
    });
  });

  // The pipeline every keyed route shares (lib/http/operation-route.ts), with an answer that fails the way
  // production can fail.
  describe("500 and 503 from the shared route pipeline", () => {
    afterEach(() => vi.restoreAllMocks());

    it("500 internal_error when an answer breaks its output schema, without internals in the body", async () => {
      vi.spyOn(identityAnswer, "fromKey").mockReturnValue({ organization: "not an object" } as never);
      const res = await call(getMe, "/api/v1/me", { headers: bearer(key) });
      check("/api/v1/me", res, 500);
      expectDocumentedError("/api/v1/me", res);
      expect(res.text).not.toMatch(/ZodError|not an object|at /);
    });

    it("503 service_unavailable with Retry-After when the database is unreachable", async () => {
      vi.spyOn(identityAnswer, "fromKey").mockImplementation(() => {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      });
      const res = await call(getMe, "/api/v1/me", { headers: bearer(key) });
      check("/api/v1/me", res, 503);
      expectDocumentedError("/api/v1/me", res);
      expect(res.text).not.toContain("5432");
    });
  });
});
