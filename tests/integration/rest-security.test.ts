import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Scope } from "@/lib/auth/scopes";
import { endpointOf, KEYED_OPERATIONS } from "@/lib/operations/table";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";
import { securityCases } from "../helpers/security-table";

type Handler = Parameters<typeof call>[0];

type Route = {
  name: string;
  handler: Handler;
  path: string;
  params: Record<string, string>;
  scope?: Scope;
  /** The query parameters the table gives it, in the table's order. */
  query: string[];
};

const SOME_UUID = "00000000-0000-4000-8000-000000000000";
const APP = path.resolve(import.meta.dirname, "../../app");

/** Every keyed operation of the table, served by its route file: /api/v1/reports/{id} → app/api/v1/reports/[id]/route.ts. */
const ROUTES: Route[] = await Promise.all(
  KEYED_OPERATIONS.map(async (operation) => {
    const file = path.join(APP, operation.path.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
    const { GET } = (await import(pathToFileURL(file).href)) as { GET: Handler };
    const params = Object.fromEntries(
      Object.entries(operation.parameters)
        .filter(([, p]) => p.in === "path")
        .map(([name]) => [name, SOME_UUID]),
    );
    const concrete = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
    const query = Object.entries(operation.parameters)
      .filter(([, p]) => p.in === "query")
      .map(([name]) => name);
    return { name: endpointOf(operation), handler: GET, path: concrete, params, scope: operation.scope, query };
  }),
);

it("covers every keyed operation, scoped and unscoped", () => {
  expect(ROUTES.map((r) => r.name)).toEqual([
    "GET /api/v1/me",
    "GET /api/v1/reports",
    "GET /api/v1/reports/{id}",
    "GET /api/v1/briefing",
    "GET /api/v1/team",
  ]);
  expect(ROUTES.filter((r) => r.scope).length).toBe(4);
});

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

  it("never accepts a key in the query string", async () => {
    const { key } = await mintKey();
    const res = await call(
      route.handler,
      `${route.path}?api_key=${key}&key=${key}&access_token=${key}`,
      {},
      route.params,
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("answers the scheme case-insensitively (RFC 9110)", async () => {
    const { key } = await mintKey();
    const res = await call(route.handler, route.path, { headers: { Authorization: `bearer ${key}` } }, route.params);
    expect([200, 404]).toContain(res.status);
  });
});

describe.each(ROUTES.filter((route) => route.scope))("scope before parameters: $name", (route) => {
  it("a key without the scope gets 403 whatever its parameters, and learns nothing about what exists", async () => {
    const other: Scope = route.scope === "reports:read" ? "team:read" : "reports:read";
    const { key } = await mintKey("acme", [other]);
    const garbled = Object.fromEntries(Object.keys(route.params).map((name) => [name, "nope"]));
    const res = await call(route.handler, `${route.path}?limit=banana&limit=0`, { headers: bearer(key) }, garbled);
    expect(res.status).toBe(403);
    expect(res.body.required_scope).toBe(route.scope);
  });
});

describe.each(ROUTES)("unknown query parameters: $name", (route) => {
  const takes = route.query.length > 0 ? route.query.join(", ") : "no query parameters";

  it("are 400 invalid_parameter naming the unknown one and listing the known ones", async () => {
    const { key } = await mintKey();
    const res = await call(
      route.handler,
      `${route.path}?member_id=${SOME_UUID}`,
      { headers: bearer(key) },
      route.params,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
    expect(res.body).toEqual({
      error: "invalid_parameter",
      message: `Unknown parameter member_id: ${route.name} takes ${takes}.`,
      request_id: res.headers.get("x-request-id"),
    });
  });

  it("come after the key: without one, 401 whatever the query string", async () => {
    const res = await call(route.handler, `${route.path}?member_id=${SOME_UUID}`, {}, route.params);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });
});

describe.each(ROUTES.filter((route) => route.scope))("unknown query parameters after the scope: $name", (route) => {
  it("a key without the scope gets 403, not the parameter's 400", async () => {
    const other: Scope = route.scope === "reports:read" ? "team:read" : "reports:read";
    const { key } = await mintKey("acme", [other]);
    const res = await call(
      route.handler,
      `${route.path}?member_id=${SOME_UUID}`,
      { headers: bearer(key) },
      route.params,
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: "insufficient_scope",
      message: expect.stringContaining(route.scope!),
      required_scope: route.scope,
      request_id: res.headers.get("x-request-id"),
    });
  });
});

it("unknown query parameters come after the rate limit: a key over its budget gets 429, not 400", async () => {
  const me = ROUTES.find((route) => route.name === "GET /api/v1/me")!;
  const { key } = await mintKey();
  const spent = await Promise.all(
    Array.from({ length: 120 }, () => call(me.handler, me.path, { headers: bearer(key) })),
  );
  expect(spent.every((r) => r.status === 200)).toBe(true);
  const res = await call(me.handler, `${me.path}?foo=1`, { headers: bearer(key) });
  expect(res.status).toBe(429);
  expect(res.body.error).toBe("rate_limited");
}, 60_000);
