import { beforeAll, describe, expect, it } from "vitest";
import { GET as wellKnownCard, POST as postWellKnownCard } from "@/app/.well-known/mcp/server-card.json/route";
import { GET as apiCard, OPTIONS as apiCardPreflight } from "@/app/api/mcp/server-card/route";
import { bearer, mintKey } from "../helpers/keys";
import { connectMcp } from "../helpers/mcp-client";
import { withEnv } from "../helpers/env";
import { call } from "../helpers/request";

const ROUTES = [
  { path: "/.well-known/mcp/server-card.json", handler: wellKnownCard, contentType: "application/json; charset=utf-8" },
  { path: "/api/mcp/server-card", handler: apiCard, contentType: "application/mcp-server-card+json" },
];

let key: string;

// The first key opens (and seeds) the shared database; do it under the hook's longer timeout.
beforeAll(async () => {
  key = (await mintKey()).key;
});

describe.each(ROUTES)("GET $path", ({ path, handler, contentType }) => {
  it("serves the card without a key: public, cacheable, readable from any origin", async () => {
    const res = await call(handler, path, { headers: { Origin: "https://agent.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentType);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.body).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "localhost/sundown",
      title: "Sundown",
      version: "1.0.0",
      websiteUrl: "http://localhost:3000/docs",
      remotes: [
        {
          type: "streamable-http",
          url: "http://localhost:3000/api/mcp",
          headers: [
            { name: "Authorization", isRequired: true, isSecret: true, description: expect.stringContaining("Bearer") },
          ],
          authentication: { required: true, schemes: ["bearer"] },
        },
      ],
    });
    expect(res.body.description).toContain("end-of-day reports");
    expect(res.body.remotes[0].supportedProtocolVersions).toContain("2025-06-18");
    expect(JSON.stringify(res.body)).not.toMatch(/oauth|resource_metadata/i);
  });

  it("answers 304 to If-None-Match with the same strong ETag", async () => {
    const first = await call(handler, path);
    const again = await call(handler, path, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("lists exactly the tools, resources and prompt a connected client sees", async () => {
    const { body } = await call(handler, path);
    const client = await connectMcp(bearer(key) as Record<string, string>);
    try {
      expect(body.tools).toEqual((await client.listTools()).tools);
      expect(body.resourceTemplates).toEqual((await client.listResourceTemplates()).resourceTemplates);
      expect(body.prompts).toEqual((await client.listPrompts()).prompts);
      expect(body.resources).toEqual([expect.objectContaining({ uri: "sundown://reports/latest" })]);
      expect(body.capabilities).toEqual(client.getServerCapabilities());
    } finally {
      await client.close();
    }
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual([
      "whoami",
      "list_reports",
      "get_report",
      "list_team",
    ]);
  });
});

describe("server card routes, other methods", () => {
  it("both locations serve the same card", async () => {
    const a = await call(wellKnownCard, "/.well-known/mcp/server-card.json");
    const b = await call(apiCard, "/api/mcp/server-card");
    expect(a.body).toEqual(b.body);
  });

  it("behind a trusted proxy, honours forwarded hosts for the URLs in the card", () =>
    withEnv({ SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const res = await call(apiCard, "/api/mcp/server-card", {
        headers: { "X-Forwarded-Host": "sundown.acme.com", "X-Forwarded-Proto": "https" },
      });
      expect(res.body.name).toBe("com.acme.sundown/sundown");
      expect(res.body.remotes[0].url).toBe("https://sundown.acme.com/api/mcp");
    }));

  it("POST is 405 JSON", async () => {
    const res = await call(postWellKnownCard, "/.well-known/mcp/server-card.json", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.body.error).toBe("method_not_allowed");
  });

  it("OPTIONS answers a CORS preflight", async () => {
    const res = await call(apiCardPreflight, "/api/mcp/server-card", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
