import { beforeAll, describe, expect, it } from "vitest";
import { GET as getRoot } from "@/app/api/v1/route";
import { GET as getOpenApi, POST as postOpenApi } from "@/app/openapi.json/route";
import { GET as getCatalog, HEAD as headCatalog, POST as postCatalog } from "@/app/.well-known/api-catalog/route";
import { GET as getLlms } from "@/app/llms.txt/route";
import * as oauthServer from "@/app/.well-known/oauth-authorization-server/[[...path]]/route";
import * as protectedResource from "@/app/.well-known/oauth-protected-resource/[[...path]]/route";
import * as openidConfiguration from "@/app/.well-known/openid-configuration/[[...path]]/route";
import * as authorizeEndpoint from "@/app/authorize/route";
import * as registerEndpoint from "@/app/register/route";
import * as tokenEndpoint from "@/app/token/route";
import type { RouteParams } from "@/lib/http/with-request";
import { apiRootSchema } from "@/lib/schemas/api-root";
import { bearer, mintKey } from "../helpers/keys";
import { withEnv } from "../helpers/env";
import { parseLinks } from "../helpers/links";
import { call } from "../helpers/request";

/** The JSON 404 the OAuth and discovery fallbacks answer: it sends the client to API keys. */
function expectNotFoundPointingAtKeys(res: Awaited<ReturnType<typeof call>>): void {
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res.body).toEqual({
    error: "not_found",
    message: expect.stringContaining("API key"),
    request_id: res.headers.get("x-request-id"),
  });
}

const BASE = "http://localhost:3000";

let globexKey: string;

beforeAll(async () => {
  globexKey = (await mintKey("globex")).key;
});

describe("GET /api/v1", () => {
  it("is exactly the contract's ApiRoot, with absolute URIs from the request's base URL", async () => {
    const res = await call(getRoot, "/api/v1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(apiRootSchema.strict().parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      name: "Sundown",
      version: "1.0.0",
      description: expect.stringContaining("end-of-day reports"),
      documentation: `${BASE}/docs`,
      openapi: `${BASE}/openapi.json`,
      api_catalog: `${BASE}/.well-known/api-catalog`,
      mcp: {
        endpoint: `${BASE}/api/mcp`,
        transport: "streamable-http",
        server_card: `${BASE}/.well-known/mcp/server-card.json`,
      },
      authentication: {
        type: "api_key",
        scheme: "bearer",
        format: "^sdn_sk_[0-9A-Za-z]{38}$",
        header: "Authorization",
        alternative_header: "X-API-Key",
        how_to_obtain: `${BASE}/settings/api-keys`,
        scopes: ["reports:read", "team:read"],
      },
      endpoints: {
        identity: "GET /api/v1/me",
        list_reports: "GET /api/v1/reports",
        get_report: "GET /api/v1/reports/{id}",
        team: "GET /api/v1/team",
      },
      rate_limit: expect.stringMatching(/^120 requests per minute per API key/),
    });
  });

  it("behind a trusted proxy, honours X-Forwarded-Host and -Proto for its URIs, and refuses a forged host", async () => {
    await withEnv({ SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const res = await call(getRoot, "/api/v1", {
        headers: { "X-Forwarded-Host": "sundown.acme.test", "X-Forwarded-Proto": "https" },
      });
      expect(res.body.openapi).toBe("https://sundown.acme.test/openapi.json");
      const links = parseLinks(res.headers.get("link")!);
      expect(links[0]).toEqual({
        href: "https://sundown.acme.test/.well-known/api-catalog",
        params: { rel: "api-catalog" },
      });
      for (const link of links) expect(link.href).toMatch(/^https:\/\/sundown\.acme\.test\//);
      const forged = await call(getRoot, "/api/v1", { headers: { "X-Forwarded-Host": "evil.test/<script>" } });
      expect(forged.body.openapi).toBe(`${BASE}/openapi.json`);
    });
  });

  it("without a trusted proxy, ignores X-Forwarded-Host, so no client can poison a cached document", async () => {
    const res = await call(getRoot, "/api/v1", {
      headers: { "X-Forwarded-Host": "evil.test", "X-Forwarded-Proto": "https" },
    });
    expect(res.body.openapi).toBe(`${BASE}/openapi.json`);
    expect(res.text).not.toContain("evil.test");
  });

  it("is public and cacheable, points at the API catalog, and answers 304 to its ETag", async () => {
    const res = await call(getRoot, "/api/v1");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(parseLinks(res.headers.get("link")!).map(({ href, params }) => [params.rel, href])).toEqual([
      ["api-catalog", `${BASE}/.well-known/api-catalog`],
      ["service-desc", `${BASE}/openapi.json`],
      ["service-doc", `${BASE}/docs`],
      ["alternate", `${BASE}/docs.md`],
    ]);
    expect(res.headers.get("ratelimit")).toBeNull();
    const again = await call(getRoot, "/api/v1", { headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("ignores any key: a bad key still gets the document and nothing about an organization", async () => {
    for (const headers of [bearer(globexKey), bearer("sdn_sk_invalid")]) {
      const res = await call(getRoot, "/api/v1", { headers });
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/Acme|Globex|organization_id|"id"/);
      expect(res.headers.get("ratelimit")).toBeNull();
    }
  });
});

describe("GET /openapi.json", () => {
  it("serves the generated OpenAPI 3.1 document for the request's base URL, public and cacheable", () =>
    withEnv({ SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const res = await call(getOpenApi, "/openapi.json", {
        headers: { "X-Forwarded-Host": "docs.acme.test", "X-Forwarded-Proto": "https" },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.body.openapi).toBe("3.1.0");
      expect(res.body.servers[0].url).toBe("https://docs.acme.test");
      expect(Object.keys(res.body.paths).sort()).toEqual([
        "/api/v1",
        "/api/v1/briefing",
        "/api/v1/me",
        "/api/v1/reports",
        "/api/v1/reports/{id}",
        "/api/v1/team",
      ]);
      const again = await call(getOpenApi, "/openapi.json", {
        headers: {
          "X-Forwarded-Host": "docs.acme.test",
          "X-Forwarded-Proto": "https",
          "If-None-Match": res.headers.get("etag")!,
        },
      });
      expect(again.status).toBe(304);
    }));

  it("refuses other methods with the JSON 405", async () => {
    const res = await call(postOpenApi, "/openapi.json", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ error: "method_not_allowed" });
  });
});

describe("/.well-known/api-catalog (RFC 9727)", () => {
  it("GET is a linkset with the RFC 9727 profile, anchored at /api/v1, pointing at the OpenAPI document and the docs", async () => {
    const res = await call(getCatalog, "/.well-known/api-catalog");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("link")).toBe(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    const [api, mcp] = res.body.linkset;
    expect(api.anchor).toBe(`${BASE}/api/v1`);
    expect(api["service-desc"]).toEqual([
      { href: `${BASE}/openapi.json`, type: "application/vnd.oai.openapi+json;version=3.1", title: expect.any(String) },
    ]);
    expect(api["service-doc"][0]).toEqual({ href: `${BASE}/docs`, type: "text/html", title: expect.any(String) });
    expect(mcp.anchor).toBe(`${BASE}/api/mcp`);
    expect(mcp["service-desc"][0].href).toBe(`${BASE}/.well-known/mcp/server-card.json`);
    for (const context of res.body.linkset) {
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === "anchor") continue;
        for (const target of targets as { href: string }[]) expect(target.href).toMatch(/^http:\/\/localhost:3000\//);
      }
    }
  });

  it('HEAD answers 200 with the Link rel="api-catalog" header and no body', async () => {
    const res = await call(headCatalog, "/.well-known/api-catalog", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("link")).toBe(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(res.headers.get("content-type")).toContain("application/linkset+json");
  });

  it("refuses other methods with the JSON 405", async () => {
    expect((await call(postCatalog, "/.well-known/api-catalog", { method: "POST" })).status).toBe(405);
  });
});

describe("OAuth discovery documents do not exist", () => {
  const routes = [
    ["/.well-known/oauth-authorization-server", oauthServer],
    ["/.well-known/oauth-protected-resource", protectedResource],
    ["/.well-known/openid-configuration", openidConfiguration],
  ] as const;
  for (const [path, route] of routes) {
    it(`${path} (and its path-suffixed form) is a JSON 404 not_found`, async () => {
      const variants: [string, RouteParams][] = [
        [path, {}],
        [`${path}/api/mcp`, { path: ["api", "mcp"] }],
      ];
      for (const [url, params] of variants) {
        expectNotFoundPointingAtKeys(await call(route.GET, url, {}, params));
      }
      expect((await call(route.POST, path, { method: "POST" })).status).toBe(404);
    });
  }

  // mcp-remote and the MCP Inspector fall back to these at the server's root when discovery finds nothing.
  it.each([
    ["/register", registerEndpoint],
    ["/authorize", authorizeEndpoint],
    ["/token", tokenEndpoint],
  ] as const)("%s is a JSON 404 pointing at API keys", async (path, route) => {
    for (const [method, handler] of [
      ["GET", route.GET],
      ["POST", route.POST],
    ] as const) {
      expectNotFoundPointingAtKeys(await call(handler, path, { method }));
    }
  });
});

describe("GET /llms.txt", () => {
  it("is a short markdown guide for agents with absolute URLs, the endpoints, MCP tools and limits", async () => {
    const res = await call(getLlms, "/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = res.text;
    expect(text.startsWith("# Sundown\n\n> ")).toBe(true);
    for (const needle of [
      "GET /api/v1/me",
      "GET /api/v1/reports",
      "GET /api/v1/reports/{id}",
      "GET /api/v1/team",
      "GET /api/v1/briefing",
      "Authorization: Bearer <API_KEY>",
      "X-API-Key",
      "reports:read",
      "team:read",
      `${BASE}/api/mcp`,
      "`whoami`",
      "`list_reports`",
      "`get_report`",
      "`list_team`",
      "`get_briefing`",
      "120 requests per minute",
      `(${BASE}/openapi.json)`,
      `(${BASE}/docs)`,
    ]) {
      expect(text).toContain(needle);
    }
    expect(text.length).toBeLessThan(5000);
  });
});
