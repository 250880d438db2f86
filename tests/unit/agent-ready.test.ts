import { describe, expect, it } from "vitest";
import { CLOUDFLARE_PATHS, parseLinkHeader, scoreCloudflare } from "@/scripts/agent-ready/cloudflare";
import { scoreGlama } from "@/scripts/agent-ready/glama";
import { scoreJentic } from "@/scripts/agent-ready/jentic";
import { scoreSmithery } from "@/scripts/agent-ready/smithery";
import type { HttpSnapshot, JsonObject, McpListing, McpTool, Observation } from "@/scripts/agent-ready/types";
import { belowFloors } from "@/scripts/agent-ready/yardsticks";

// Each yardstick on a small crafted observation: a site that passes, then one thing taken away at a time, so
// every check is seen to fail for the reason it names.

const json = (body: unknown, type = "application/json"): HttpSnapshot => ({
  status: 200,
  headers: { "content-type": type },
  body: JSON.stringify(body),
});
const notFound: HttpSnapshot = { status: 404, headers: { "content-type": "text/html" }, body: "<h1>404</h1>" };

const ROBOTS =
  "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /docs\n\nUser-agent: GPTBot\nDisallow: /\n";

const TOOL: McpTool = {
  name: "list_things",
  title: "List things",
  description:
    "Lists the organization's things, newest first, with id and name. Use it to find a thing, then get_thing with its id. " +
    "limit: 1 to 50, default 14. Read-only: changes nothing; an unknown filter is an invalid_parameter error.",
  inputSchema: {
    type: "object",
    properties: { limit: { type: "integer", minimum: 1, maximum: 50, description: "Things per page." } },
  },
  outputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
};
const SIBLING: McpTool = {
  ...TOOL,
  name: "get_thing",
  description:
    "Returns one thing in full: id, name and owner. Use it after list_things with one of its ids; an unknown id is a " +
    "not_found error. Read-only: changes nothing. Takes the id of the thing as its only argument.",
  inputSchema: {
    type: "object",
    properties: { id: { type: "string", format: "uuid", description: "The thing's id, from list_things." } },
  },
};

const LISTING: McpListing = {
  serverInfo: {
    name: "things",
    title: "Things",
    description: "Things.",
    websiteUrl: "https://x.example/docs",
    icons: [{}],
  },
  tools: [TOOL, SIBLING],
  prompts: [{ name: "summary" }],
  resources: [{ uri: "things://1" }],
};

const OPENAPI: JsonObject = {
  openapi: "3.1.0",
  info: { title: "Things", description: "Things for agents." },
  servers: [{ url: "https://things.example" }],
  tags: [{ name: "Things", description: "The things." }],
  components: {
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    schemas: { Error: { type: "object", properties: { code: { type: "string" } } } },
  },
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        summary: "List things",
        description: "The things.",
        security: [{ bearer: [] }],
        "x-ratelimit": { limit: 60 },
        "x-pagination": { style: "cursor" },
        parameters: [{ name: "cursor", in: "query", description: "The next page." }],
        responses: {
          200: {
            content: {
              "application/json": {
                schema: { type: "object", properties: { things: { type: "array", items: { type: "object" } } } },
                example: { things: [] },
              },
            },
          },
          400: {
            content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Error" }, example: {} } },
          },
        },
      },
    },
  },
};

function site(): Observation {
  return {
    home: {
      status: 200,
      headers: { "content-type": "text/html", link: '</.well-known/api-catalog>; rel="api-catalog"' },
      body: "<html></html>",
    },
    homeMarkdown: { status: 200, headers: { "content-type": "text/markdown; charset=utf-8" }, body: "# Things" },
    documents: {
      [CLOUDFLARE_PATHS.robots]: { status: 200, headers: { "content-type": "text/plain" }, body: ROBOTS },
      [CLOUDFLARE_PATHS.sitemap]: notFound,
      [CLOUDFLARE_PATHS.mcpServerCard]: json({ serverInfo: { name: "things" } }),
      [CLOUDFLARE_PATHS.agentSkills]: json({ skills: [] }),
      [CLOUDFLARE_PATHS.apiCatalog]: json({ linkset: [] }, "application/linkset+json"),
    },
    openapi: structuredClone(OPENAPI),
    mcp: structuredClone(LISTING),
  };
}

function outcomeOf(score: { checks: { name: string; outcome: string; reason: string }[] }, name: string) {
  const found = score.checks.find((c) => c.name.startsWith(name));
  if (!found) throw new Error(`no check named ${name}`);
  return found;
}

describe("Cloudflare agent readiness", () => {
  it("reaches Agent-Integrated with robots, Link, markdown, content signals and the discovery documents", () => {
    const score = scoreCloudflare(site());
    expect(score.score).toBe(4);
    expect(score.verdict).toMatch(/^Level 4 \(Agent-Integrated\)/);
  });

  it("a home page without a Link header loses the point, and with sitemap missing too, level 1", () => {
    const observation = site();
    observation.home.headers = { "content-type": "text/html" };
    const score = scoreCloudflare(observation);
    expect(outcomeOf(score, "Link headers")).toMatchObject({ outcome: "fail", reason: "GET / has no Link header" });
    expect(score.score).toBe(0);
  });

  it("a Link header without an agent relation does not count", () => {
    const observation = site();
    observation.home.headers.link = '</style.css>; rel="preload"';
    expect(outcomeOf(scoreCloudflare(observation), "Link headers").outcome).toBe("fail");
  });

  it("HTML for Accept: text/markdown stops at Bot-Aware", () => {
    const observation = site();
    observation.homeMarkdown.headers["content-type"] = "text/html";
    const score = scoreCloudflare(observation);
    expect(outcomeOf(score, "markdown negotiation").outcome).toBe("fail");
    expect(score.score).toBe(2);
  });

  it("robots.txt without Content-Signal, or without an AI crawler, stops at Basic Web Presence", () => {
    for (const robots of [ROBOTS.replace(/^Content-Signal.*$/m, ""), ROBOTS.replace("GPTBot", "Googlebot")]) {
      const observation = site();
      observation.documents[CLOUDFLARE_PATHS.robots]!.body = robots;
      expect(scoreCloudflare(observation).score).toBe(1);
    }
  });

  it("a robots.txt served as HTML (a 404 page) fails", () => {
    const observation = site();
    observation.documents[CLOUDFLARE_PATHS.robots] = notFound;
    expect(outcomeOf(scoreCloudflare(observation), "robots.txt").reason).toBe("GET /robots.txt answered 404 text/html");
  });

  it("without any of the four integration documents it stops at Agent-Readable", () => {
    const observation = site();
    for (const path of [CLOUDFLARE_PATHS.mcpServerCard, CLOUDFLARE_PATHS.agentSkills, CLOUDFLARE_PATHS.apiCatalog]) {
      delete observation.documents[path];
    }
    expect(scoreCloudflare(observation).score).toBe(3);
  });

  it("all four integration documents and OAuth metadata make Agent-Native", () => {
    const observation = site();
    observation.documents[CLOUDFLARE_PATHS.a2aAgentCard] = json({ name: "things", url: "https://things.example" });
    observation.documents[CLOUDFLARE_PATHS.oauthProtectedResource] = json({ resource: "https://things.example" });
    expect(scoreCloudflare(observation).score).toBe(5);
  });

  it("reads RFC 8288 Link headers", () => {
    expect(parseLinkHeader('<https://a/x>; rel="service-desc"; type="application/json", </y>; rel=alternate')).toEqual([
      { href: "https://a/x", rel: "service-desc", type: "application/json" },
      { href: "/y", rel: "alternate", type: undefined },
    ]);
  });
});

describe("Glama tool descriptions", () => {
  it("tools that say what, when, how and with what score 5", () => {
    const score = scoreGlama(site());
    expect(score.score).toBe(5);
    expect(score.checks.every((c) => c.outcome === "pass")).toBe(true);
  });

  it("the weakest tool pulls the server down and is named", () => {
    const observation = site();
    const listing = observation.mcp as McpListing;
    listing.tools[1] = { name: "get_thing", description: "Gets a thing." };
    const score = scoreGlama(observation);
    expect(score.score).toBeLessThan(4);
    expect(score.verdict).toContain("lowest get_thing");
    const weak = outcomeOf(score, "get_thing");
    expect(weak.reason).toContain("usage: names a sibling tool");
    expect(weak.reason).toContain("completeness: an outputSchema");
  });

  it("an undescribed parameter, a missing annotation or a too-long description each cost points", () => {
    const cases: ((tool: McpTool) => void)[] = [
      (tool) => delete tool.inputSchema!.properties.limit.description,
      (tool) => delete tool.annotations,
      (tool) => (tool.description = `${tool.description} ${"More words. ".repeat(100)}`),
    ];
    for (const spoil of cases) {
      const observation = site();
      spoil((observation.mcp as McpListing).tools[0]!);
      expect(scoreGlama(observation).score).toBeLessThan(5);
    }
  });

  it("an unreachable server scores 0", () => {
    expect(scoreGlama({ ...site(), mcp: { error: "401" } }).score).toBe(0);
  });
});

describe("Jentic API AI-readiness", () => {
  it("a small, complete document is Agent-Optimized", () => {
    const score = scoreJentic(site());
    expect(score.score).toBeGreaterThan(90);
    expect(score.verdict).toBe("Agent-Optimized");
  });

  it("a response without an example, an operation without x-ratelimit, a broken $ref each fail their signal", () => {
    const spoilers: [string, (doc: JsonObject) => void][] = [
      ["example_density", (doc) => delete doc.paths["/things"].get.responses[200].content["application/json"].example],
      ["policy_presence", (doc) => delete doc.paths["/things"].get["x-ratelimit"]],
      ["resolution_completeness", (doc) => delete doc.components.schemas.Error],
      [
        "pagination",
        (doc) => (delete doc.paths["/things"].get["x-pagination"], (doc.paths["/things"].get.parameters = [])),
      ],
      ["opid_quality", (doc) => delete doc.paths["/things"].get.operationId],
      ["transport_security", (doc) => (doc.servers = [{ url: "http://things.example" }])],
    ];
    for (const [signal, spoil] of spoilers) {
      const observation = site();
      spoil(observation.openapi!);
      const score = scoreJentic(observation);
      expect(score.checks.find((c) => c.name.includes(`: ${signal} `))?.outcome, signal).toBe("fail");
      expect(score.score, signal).toBeLessThan(scoreJentic(site()).score);
    }
  });

  it("a shared error schema that is not problem+json gets half of error_standardization", () => {
    const observation = site();
    const errors = observation.openapi!.paths["/things"].get.responses[400].content;
    errors["application/json"] = errors["application/problem+json"];
    delete errors["application/problem+json"];
    expect(scoreJentic(observation).checks.find((c) => c.name.includes("error_standardization"))?.name).toMatch(
      / 0\.5$/,
    );
  });

  it("no OpenAPI document scores 0", () => {
    expect(scoreJentic({ ...site(), openapi: undefined }).score).toBe(0);
  });
});

describe("Smithery listing", () => {
  it("a complete listing earns every checkable point", () => {
    expect(scoreSmithery(site())).toMatchObject({ score: 85, max: 85 });
  });

  it("no icon, no homepage or no prompts lose their points", () => {
    const observation = site();
    const listing = observation.mcp as McpListing;
    delete listing.serverInfo.icons;
    delete listing.serverInfo.websiteUrl;
    listing.prompts = [];
    const score = scoreSmithery(observation);
    expect(score.score).toBe(85 - 7 - 10 - 5);
    expect(outcomeOf(score, "icon").outcome).toBe("fail");
  });

  it("half the tools without an outputSchema earn half those points", () => {
    const observation = site();
    delete (observation.mcp as McpListing).tools[0]!.outputSchema;
    expect(outcomeOf(scoreSmithery(observation), "output schemas").name).toBe("output schemas (5/10)");
  });
});

describe("floors", () => {
  it("names each yardstick below its floor and ignores one without a floor", () => {
    const scores = [scoreCloudflare(site()), scoreSmithery(site())];
    expect(belowFloors(scores, { "Cloudflare agent readiness": 5 })).toEqual([
      "Cloudflare agent readiness: 4 is below its floor 5",
    ]);
    expect(belowFloors(scores, { "Cloudflare agent readiness": 4, "Smithery listing": 85 })).toEqual([]);
  });
});
