import { beforeAll, describe, expect, it } from "vitest";
import { GET as aiCatalog } from "@/app/.well-known/ai-catalog.json/route";
import { GET as wellKnownCard, POST as postWellKnownCard } from "@/app/.well-known/mcp/server-card.json/route";
import { GET as apiCard, OPTIONS as apiCardPreflight } from "@/app/api/mcp/server-card/route";
import { bearer, mintKey } from "../helpers/keys";
import { connectMcp, MCP_ERAS } from "../helpers/mcp-client";
import { withEnv } from "../helpers/env";
import { call } from "../helpers/request";
import { serverCardViolations } from "../helpers/vendored-schemas";

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
  it("serves the card without a key: public, cached for an hour, readable from any origin", async () => {
    const res = await call(handler, path, { headers: { Origin: "https://agent.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentType);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
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
        },
      ],
    });
    expect(res.body.description).toContain("end-of-day reports");
    expect(JSON.stringify(res.body)).not.toMatch(/oauth|resource_metadata/i);
  });

  it("conforms to the server-card extension's schema", async () => {
    const { body } = await call(handler, path);
    expect(serverCardViolations(body)).toEqual([]);
  });

  it("names both eras' revisions, and claims no capability (no listChanged a stateless server cannot keep)", async () => {
    const { body } = await call(handler, path);
    expect(body.remotes[0].supportedProtocolVersions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);
    expect(body.remotes[0].supportedProtocolVersions).toEqual(expect.arrayContaining([...MCP_ERAS]));
    expect(body.capabilities).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain("listChanged");
  });

  it("answers 304 to If-None-Match with the same strong ETag", async () => {
    const first = await call(handler, path);
    const again = await call(handler, path, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
  });
});

describe("server card routes", () => {
  it.each(MCP_ERAS)(
    "says who the server is as the server itself does to a %s client: title, description, website, icons",
    async (era) => {
      const { body } = await call(apiCard, "/api/mcp/server-card");
      const client = await connectMcp(bearer(key) as Record<string, string>, undefined, era);
      try {
        const { title, description, websiteUrl, icons, version } = client.getServerVersion()!;
        expect(body).toMatchObject({ title, description, websiteUrl, icons, version });
        expect(body.icons).toEqual([
          { src: "http://localhost:3000/sundown.svg", mimeType: "image/svg+xml", sizes: ["any"] },
        ]);
      } finally {
        await client.close();
      }
    },
  );

  it("the schema check can fail: a card without a name, or with a name that is not reverse-DNS", async () => {
    const { body } = await call(apiCard, "/api/mcp/server-card");
    const { name: _name, ...unnamed } = body;
    expect(serverCardViolations(unnamed)).toEqual(["/ must have required property 'name'"]);
    expect(serverCardViolations({ ...body, name: "sundown" })).not.toEqual([]);
  });

  it("the card at the endpoint lists no primitives (they are the protocol's to list)", async () => {
    const { body } = await call(apiCard, "/api/mcp/server-card");
    expect(Object.keys(body).sort()).toEqual([
      "$schema",
      "description",
      "icons",
      "name",
      "remotes",
      "title",
      "version",
      "websiteUrl",
    ]);
  });

  it("the contract's card is the same card plus exactly the primitives a connected client lists", async () => {
    const wellKnown = (await call(wellKnownCard, "/.well-known/mcp/server-card.json")).body;
    const card = (await call(apiCard, "/api/mcp/server-card")).body;
    const { tools, resources, resourceTemplates, prompts, instructions, ...rest } = wellKnown;
    expect(rest).toEqual(card);
    const client = await connectMcp(bearer(key) as Record<string, string>);
    try {
      expect(instructions).toBe(client.getInstructions());
      expect(tools).toEqual((await client.listTools()).tools);
      expect(resourceTemplates).toEqual((await client.listResourceTemplates()).resourceTemplates);
      expect(prompts).toEqual((await client.listPrompts()).prompts);
      expect(resources).toEqual([expect.objectContaining({ uri: "sundown://reports/latest" })]);
    } finally {
      await client.close();
    }
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      "whoami",
      "list_reports",
      "get_report",
      "get_briefing",
      "list_team",
    ]);
  });

  it("behind a trusted proxy, honours forwarded hosts for the URLs in the card", () =>
    withEnv({ SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const res = await call(apiCard, "/api/mcp/server-card", {
        headers: { "X-Forwarded-Host": "sundown.acme.com", "X-Forwarded-Proto": "https" },
      });
      expect(res.body.name).toBe("com.acme.sundown/sundown");
      expect(res.body.remotes[0].url).toBe("https://sundown.acme.com/api/mcp");
      expect(res.body.websiteUrl).toBe("https://sundown.acme.com/docs");
      expect(res.body.icons[0].src).toBe("https://sundown.acme.com/sundown.svg");
      const wellKnown = await call(wellKnownCard, "/.well-known/mcp/server-card.json", {
        headers: { "X-Forwarded-Host": "sundown.acme.com", "X-Forwarded-Proto": "https" },
      });
      for (const tool of wellKnown.body.tools) expect(tool.icons[0].src).toBe("https://sundown.acme.com/sundown.svg");
    }));

  it("POST is 405 JSON", async () => {
    const res = await call(postWellKnownCard, "/.well-known/mcp/server-card.json", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.body.error).toBe("method_not_allowed");
  });

  it("OPTIONS answers a CORS preflight that allows If-None-Match", async () => {
    const res = await call(apiCardPreflight, "/api/mcp/server-card", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")).toContain("If-None-Match");
  });
});

describe("GET /.well-known/ai-catalog.json", () => {
  it("points MCP clients at the card, under the catalog's media type", async () => {
    const res = await call(aiCatalog, "/.well-known/ai-catalog.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/ai-catalog+json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.body).toEqual({
      specVersion: "1.0",
      entries: [
        {
          identifier: "urn:air:localhost:mcp:sundown",
          type: "application/mcp-server-card+json",
          url: "http://localhost:3000/api/mcp/server-card",
        },
      ],
    });
    const card = await call(apiCard, new URL(res.body.entries[0].url).pathname);
    expect(card.status).toBe(200);
  });
});
