import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { API_CATALOG_CONTENT_TYPE, buildApiCatalog } from "@/lib/discovery/api-catalog";
import { buildApiRoot } from "@/lib/discovery/api-root";
import { apiCatalogLink } from "@/lib/discovery/links";
import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { resetEnvCache } from "@/lib/env";
import { DISCOVERY_MAX_AGE_SECONDS } from "@/lib/discovery/mcp-server-card";
import { apiRootSchema } from "@/lib/schemas/api-root";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";

const BASE = "https://sundown.acme.test";

afterEach(() => {
  delete process.env.SUNDOWN_RATE_LIMIT;
  resetEnvCache();
});

describe("API root", () => {
  it("is valid against its schema and every URI is absolute under the base URL", () => {
    const root = apiRootSchema.strict().parse(buildApiRoot(BASE));
    const uris = [
      root.documentation,
      root.openapi,
      root.api_catalog,
      root.mcp.endpoint,
      root.mcp.server_card,
      root.authentication.how_to_obtain,
    ];
    for (const uri of uris) expect(uri.startsWith(`${BASE}/`), uri).toBe(true);
  });

  it("states the configured per-key rate limit", () => {
    process.env.SUNDOWN_RATE_LIMIT = "500";
    resetEnvCache();
    expect(buildApiRoot(BASE).rate_limit).toMatch(/^500 requests per minute per API key/);
  });
});

describe("API catalog (RFC 9727)", () => {
  it("is a linkset whose every target is an absolute URI under the base, with the RFC 9727 profile", () => {
    expect(API_CATALOG_CONTENT_TYPE).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    const { linkset } = buildApiCatalog(BASE);
    expect(linkset.map((c) => c.anchor)).toEqual([`${BASE}/api/v1`, `${BASE}/api/mcp`]);
    for (const context of linkset) {
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === "anchor") continue;
        expect(Array.isArray(targets)).toBe(true);
        for (const target of targets as { href: string; type: string }[]) {
          expect(target.href.startsWith(`${BASE}/`)).toBe(true);
          expect(target.type).toMatch(/^[a-z]+\/[a-z0-9.+-]+/);
        }
      }
    }
    expect(apiCatalogLink(BASE)).toBe(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
  });
});

describe("llms.txt", () => {
  it("follows llmstxt.org: one H1, a blockquote summary, then H2 sections", () => {
    const lines = buildLlmsTxt(BASE).split("\n");
    expect(lines[0]).toBe("# Sundown");
    expect(lines[2]).toMatch(/^> /);
    expect(lines.filter((l) => l.startsWith("# "))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("## ")).map((l) => l.slice(3))).toEqual([
      "Authentication",
      "Endpoints",
      "MCP",
      "Errors and limits",
      "Webhooks",
      "Docs",
    ]);
  });

  it("names every webhook event and points at the guide's webhooks section", () => {
    const text = buildLlmsTxt(BASE);
    const webhooks = text.slice(text.indexOf("## Webhooks"), text.indexOf("## Docs"));
    for (const type of [...WEBHOOK_EVENT_TYPES, "ping"]) expect(webhooks).toContain(`\`${type}\``);
    expect(webhooks).toContain(`(${BASE}/docs#webhooks)`);
  });
});

describe("what docs/api.md says of the discovery documents' caching", () => {
  it("names the lifetimes the routes send: five minutes, and the MCP cards' and AI catalog's", () => {
    const page = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    expect(page).toContain("five minutes (`Cache-Control: public, max-age=300`)");
    expect(page).toContain(
      `the MCP server cards and the AI catalog that points at them: an hour (\`max-age=${DISCOVERY_MAX_AGE_SECONDS}\`)`,
    );
  });
});
