import { describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import type { Scope } from "@/lib/auth/scopes";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";
import { securityCases } from "../helpers/security-table";

type Route = {
  name: string;
  handler: typeof getMe;
  path: string;
  params?: Record<string, string>;
  scope?: Scope;
};

const SOME_UUID = "00000000-0000-4000-8000-000000000000";

const ROUTES: Route[] = [
  { name: "GET /api/v1/me", handler: getMe, path: "/api/v1/me" },
  { name: "GET /api/v1/reports", handler: listReports, path: "/api/v1/reports", scope: "reports:read" },
  { name: "GET /api/v1/reports/{id}", handler: getReport, path: `/api/v1/reports/${SOME_UUID}`, params: { id: SOME_UUID }, scope: "reports:read" },
  { name: "GET /api/v1/team", handler: listTeam, path: "/api/v1/team", scope: "team:read" },
];

describe.each(ROUTES)("security table: $name", (route) => {
  it.each(securityCases(route.scope))("$name → $expect.status $expect.error", async ({ headers, expect: want }) => {
    const res = await call(route.handler, route.path, { headers: await headers() }, route.params);
    expect(res.status).toBe(want.status);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.error).toBe(want.error);
    expect(typeof res.body.message).toBe("string");
    expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    expect(res.headers.get("www-authenticate")).toBe(want.status === 401 ? want.challenge : null);
    if (want.status === 403) {
      expect(res.body.required_scope).toBe(route.scope);
      expect(res.body.message).toContain(route.scope);
    } else {
      expect(res.body).not.toHaveProperty("required_scope");
    }
    expect(Object.keys(res.body).sort()).toEqual(
      want.status === 403 ? ["error", "message", "request_id", "required_scope"] : ["error", "message", "request_id"],
    );
  });

  it("accepts the key in X-API-Key as well as Authorization: Bearer", async () => {
    const { key } = await mintKey();
    const viaHeader = await call(route.handler, route.path, { headers: { "X-API-Key": key } }, route.params);
    const viaBearer = await call(route.handler, route.path, { headers: bearer(key) }, route.params);
    expect(viaHeader.status).toBe(viaBearer.status);
    const { request_id: _a, ...headerBody } = viaHeader.body;
    const { request_id: _b, ...bearerBody } = viaBearer.body;
    expect(headerBody).toEqual(bearerBody);
    expect([200, 404]).toContain(viaBearer.status);
  });

  it("accepts the same key sent in both headers", async () => {
    const { key } = await mintKey();
    const res = await call(route.handler, route.path, { headers: { ...bearer(key), "X-API-Key": key } }, route.params);
    expect([200, 404]).toContain(res.status);
  });

  it("checks the scope before the parameters: a key without it learns nothing", async () => {
    if (!route.scope) return;
    const other: Scope = route.scope === "reports:read" ? "team:read" : "reports:read";
    const { key } = await mintKey("acme", [other]);
    const res = await call(route.handler, `${route.path}?limit=banana`, { headers: bearer(key) }, route.params && { id: "nope" });
    expect(res.status).toBe(403);
    expect(res.body.required_scope).toBe(route.scope);
  });

  it("never accepts a key in the query string", async () => {
    const { key } = await mintKey();
    const res = await call(route.handler, `${route.path}?api_key=${key}&key=${key}&access_token=${key}`, {}, route.params);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("answers the scheme case-insensitively (RFC 9110)", async () => {
    const { key } = await mintKey();
    const res = await call(route.handler, route.path, { headers: { Authorization: `bearer ${key}` } }, route.params);
    expect([200, 404]).toContain(res.status);
  });
});
