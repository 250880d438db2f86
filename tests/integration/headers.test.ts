import { beforeAll, describe, expect, it } from "vitest";
import * as apiRoot from "@/app/api/v1/route";
import * as me from "@/app/api/v1/me/route";
import * as report from "@/app/api/v1/reports/[id]/route";
import * as reports from "@/app/api/v1/reports/route";
import * as team from "@/app/api/v1/team/route";
import { withEnv } from "../helpers/env";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";

// Opens the database (seconds on first use) before any test measures itself.
beforeAll(() => mintKey());

const EXPOSED = "RateLimit, RateLimit-Policy, Retry-After, ETag, X-Request-Id, Link";
const ROUTES = [
  ["/api/v1", apiRoot],
  ["/api/v1/me", me],
  ["/api/v1/reports", reports],
  ["/api/v1/reports/{id}", report],
  ["/api/v1/team", team],
] as const;

function expectApiHeaders(headers: Headers) {
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("access-control-allow-origin")).toBe("*");
  expect(headers.get("access-control-expose-headers")).toBe(EXPOSED);
  expect(headers.get("access-control-allow-credentials")).toBeNull();
  expect(headers.get("x-powered-by")).toBeNull();
  expect(headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
}

describe("conditional requests and caching", () => {
  it("keyed GET: private, no-cache, strong ETag, and 304 on If-None-Match with the rate-limit headers", async () => {
    const { key } = await mintKey();
    const first = await call(me.GET, "/api/v1/me", { headers: bearer(key) });
    expect(first.status).toBe(200);
    expectApiHeaders(first.headers);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("vary")).toBe("Authorization, X-API-Key");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    const again = await call(me.GET, "/api/v1/me", { headers: { ...bearer(key), "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    expect(again.headers.get("ratelimit")).toMatch(/^"per-key";r=118;t=\d+$/);
    expectApiHeaders(again.headers);

    const weak = await call(me.GET, "/api/v1/me", {
      headers: { ...bearer(key), "If-None-Match": `"other", W/${etag}` },
    });
    expect(weak.status).toBe(304);
    const changed = await call(me.GET, "/api/v1/me", {
      headers: { ...bearer(key), "If-None-Match": '"something-else"' },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).toBe(etag);
  });

  describe("Vary on a page of a list, whose next-page Link is built from the Host", () => {
    it.each([
      [{}, "Authorization, X-API-Key, Host"],
      [{ SUNDOWN_TRUST_PROXY: "1" }, "Authorization, X-API-Key, Host, X-Forwarded-Host, X-Forwarded-Proto"],
      [{ SUNDOWN_URL: "https://sundown.example" }, "Authorization, X-API-Key"],
    ])("with %j: %s, on the 200 and on its 304", async (env, vary) => {
      const { key } = await mintKey();
      await withEnv({ SUNDOWN_URL: undefined, SUNDOWN_TRUST_PROXY: undefined, VERCEL: undefined, ...env }, async () => {
        const page = await call(reports.GET, "/api/v1/reports?limit=1", { headers: bearer(key) });
        expect(page.status).toBe(200);
        expect(page.headers.get("link")).toMatch(/; rel="next"$/);
        expect(page.headers.get("vary")).toBe(vary);
        const again = await call(reports.GET, "/api/v1/reports?limit=1", {
          headers: { ...bearer(key), "If-None-Match": page.headers.get("etag")! },
        });
        expect(again.status).toBe(304);
        expect(again.headers.get("vary")).toBe(vary);
      });
    });

    it("the last page, without a Link, varies on the key alone", async () => {
      const { key } = await mintKey();
      const last = await call(reports.GET, "/api/v1/reports?limit=50&scope=org&until=1970-01-02", {
        headers: bearer(key),
      });
      expect(last.status).toBe(200);
      expect(last.headers.get("link")).toBeNull();
      expect(last.headers.get("vary")).toBe("Authorization, X-API-Key");
    });
  });

  it("GET /api/v1: public, max-age=300, with ETag and 304, and not counted against any key", async () => {
    const first = await call(apiRoot.GET, "/api/v1");
    expect(first.status).toBe(200);
    expectApiHeaders(first.headers);
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    expect(first.headers.get("ratelimit")).toBeNull();
    const again = await call(apiRoot.GET, "/api/v1", { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("errors are JSON, never cached, and carry the API headers", async () => {
    const unauthorized = await call(me.GET, "/api/v1/me");
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("cache-control")).toBe("no-store");
    expect(unauthorized.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expectApiHeaders(unauthorized.headers);
    const notAllowed = await call(me.POST, "/api/v1/me", { method: "POST" });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get("allow")).toBe("GET, HEAD");
    expectApiHeaders(notAllowed.headers);
  });

  it("echoes a sane X-Request-Id and replaces one that is not", async () => {
    const echoed = await call(apiRoot.GET, "/api/v1", { headers: { "X-Request-Id": "trace-123.abc" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123.abc");
    const replaced = await call(apiRoot.GET, "/api/v1", { headers: { "X-Request-Id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("CORS", () => {
  it.each(ROUTES)("answers the preflight of %s with 204 and the allowed methods and headers", async (path, route) => {
    const preflight = await call(route.OPTIONS, path.replace("{id}", "x"), {
      method: "OPTIONS",
      headers: {
        Origin: "https://agent.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe("");
    expectApiHeaders(preflight.headers);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "Authorization, X-API-Key, If-None-Match, X-Request-Id",
    );
    expect(preflight.headers.get("access-control-max-age")).toBe("7200");
  });

  it("lets any origin read keyed responses, which are authorized by header, never by cookie", async () => {
    const { key } = await mintKey();
    const response = await call(team.GET, "/api/v1/team", {
      headers: { ...bearer(key), Origin: "https://agent.example", Cookie: "a=b" },
    });
    expect(response.status).toBe(200);
    expectApiHeaders(response.headers);
  });
});
