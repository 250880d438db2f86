import { check, type CheckResult, type HttpSnapshot, type Observation, type YardstickScore } from "./types";

// Cloudflare's agent-readiness scan (isitagentready.com), levels 0 to 5. The checks and their grouping are the
// scanner's own documentation (https://isitagentready.com/llms-full.txt: discoverability, content accessibility,
// bot access control, discovery, commerce; Web Bot Auth, WebMCP and commerce are "neutral" for a site like
// this); the level rule is as published with the launch (https://blog.cloudflare.com/agent-readiness/) and
// restated check by check at https://docs.reaudit.io/agent-readiness:
//   1 Basic Web Presence  two of robots.txt, sitemap, Link headers
//   2 Bot-Aware           + AI bot rules in robots.txt and Content Signals
//   3 Agent-Readable      + markdown content negotiation
//   4 Agent-Integrated    + one of MCP server card, A2A agent card, Agent Skills index, API catalog
//   5 Agent-Native        + two of: Web Bot Auth, all four integration documents, OAuth discovery metadata
// What each check accepts follows the scanner's messages; where it is not published (e.g. which bots count as
// AI bots) the open re-implementations agree (github.com/PromptMention/isitagentready packages/core).

const LEVEL_NAMES = [
  "Not Ready",
  "Basic Web Presence",
  "Bot-Aware",
  "Agent-Readable",
  "Agent-Integrated",
  "Agent-Native",
] as const;

/** AI crawlers whose named User-agent group counts as an AI bot rule. */
const AI_BOTS = [
  "gptbot",
  "oai-searchbot",
  "chatgpt-user",
  "claudebot",
  "claude-web",
  "claude-user",
  "claude-searchbot",
  "anthropic-ai",
  "google-extended",
  "perplexitybot",
  "ccbot",
  "bytespider",
  "applebot-extended",
  "meta-externalagent",
];

/** The Content Signals vocabulary (contentsignals.org). */
const CONTENT_SIGNAL_KEYS = ["search", "ai-input", "ai-train"];

/** Link relations an agent follows from a home page (RFC 9727, RFC 8631, RFC 8288's alternate). */
const AGENT_RELATIONS = ["api-catalog", "service-desc", "service-doc", "describedby", "alternate"];

export const CLOUDFLARE_PATHS = {
  robots: "/robots.txt",
  sitemap: "/sitemap.xml",
  apiCatalog: "/.well-known/api-catalog",
  mcpServerCard: "/.well-known/mcp/server-card.json",
  a2aAgentCard: "/.well-known/agent-card.json",
  agentSkills: "/.well-known/agent-skills/index.json",
  oauthAuthorizationServer: "/.well-known/oauth-authorization-server",
  openidConfiguration: "/.well-known/openid-configuration",
  oauthProtectedResource: "/.well-known/oauth-protected-resource",
} as const;

const MISSING: HttpSnapshot = { status: 0, headers: {}, body: "" };

function contentType(snapshot: HttpSnapshot): string {
  return (snapshot.headers["content-type"] ?? "").toLowerCase();
}

function jsonOf(snapshot: HttpSnapshot): Record<string, unknown> | undefined {
  if (snapshot.status !== 200) return undefined;
  try {
    const value: unknown = JSON.parse(snapshot.body);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function directives(robots: string, field: string): string[] {
  const pattern = new RegExp(`^\\s*${field}\\s*:\\s*(.*)$`, "i");
  return robots.split(/\r?\n/).flatMap((line) => {
    const match = pattern.exec(line.replace(/#.*$/, ""));
    return match ? [match[1]!.trim()] : [];
  });
}

/** Each link of an RFC 8288 Link header as its rel and type (good enough for the header values servers send). */
export function parseLinkHeader(value: string | undefined): { href: string; rel: string; type?: string }[] {
  if (!value) return [];
  return [...value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)].map(([, href, params]) => {
    const param = (name: string) => new RegExp(`;\\s*${name}\\s*=\\s*"?([^";]+)"?`, "i").exec(params ?? "")?.[1];
    return { href: href!, rel: (param("rel") ?? "").toLowerCase(), type: param("type")?.toLowerCase() };
  });
}

function robotsCheck(robots: HttpSnapshot): CheckResult {
  const ok = robots.status === 200 && contentType(robots).startsWith("text/plain");
  const groups = directives(robots.body, "user-agent").length;
  return check(
    "robots.txt",
    ok && groups > 0,
    `200 text/plain with ${groups} User-agent line(s)`,
    ok ? "no User-agent directive" : `GET /robots.txt answered ${robots.status} ${contentType(robots) || "(no type)"}`,
  );
}

function sitemapCheck(robots: HttpSnapshot, sitemap: HttpSnapshot): CheckResult {
  const declared = robots.status === 200 ? directives(robots.body, "sitemap") : [];
  const parses = sitemap.status === 200 && /<(urlset|sitemapindex)[\s>]/.test(sitemap.body);
  return check(
    "sitemap",
    declared.length > 0 || parses,
    declared.length > 0 ? `robots.txt declares ${declared[0]}` : "/sitemap.xml is a <urlset>",
    `no Sitemap: in robots.txt and GET /sitemap.xml answered ${sitemap.status}`,
  );
}

function linkHeaderCheck(home: HttpSnapshot): CheckResult {
  const rels = parseLinkHeader(home.headers.link).map((link) => link.rel);
  const useful = rels.filter((rel) => AGENT_RELATIONS.includes(rel));
  return check(
    "Link headers",
    useful.length > 0,
    `GET / links ${useful.join(", ")}`,
    home.headers.link ? `GET /'s Link has no agent relation (${rels.join(", ")})` : "GET / has no Link header",
  );
}

function markdownCheck(markdown: HttpSnapshot): CheckResult {
  return check(
    "markdown negotiation",
    markdown.status === 200 && contentType(markdown).startsWith("text/markdown"),
    "GET / with Accept: text/markdown answers text/markdown",
    `GET / with Accept: text/markdown answered ${markdown.status} ${contentType(markdown) || "(no type)"}`,
  );
}

function aiBotRulesCheck(robots: HttpSnapshot): CheckResult {
  const named = directives(robots.status === 200 ? robots.body : "", "user-agent").filter((agent) =>
    AI_BOTS.includes(agent.toLowerCase()),
  );
  return check(
    "AI bot rules",
    named.length > 0,
    `robots.txt has rules for ${named.slice(0, 4).join(", ")}${named.length > 4 ? "…" : ""}`,
    "robots.txt names no AI crawler",
  );
}

function contentSignalsCheck(robots: HttpSnapshot): CheckResult {
  const signals = directives(robots.status === 200 ? robots.body : "", "content-signal");
  const keys = signals.flatMap((signal) => signal.split(",").map((pair) => pair.split("=")[0]!.trim().toLowerCase()));
  const known = keys.filter((key) => CONTENT_SIGNAL_KEYS.includes(key));
  return check(
    "Content Signals",
    known.length > 0,
    `Content-Signal: ${signals[0]}`,
    "robots.txt has no Content-Signal directive",
  );
}

function wellKnownCheck(
  name: string,
  path: string,
  snapshot: HttpSnapshot,
  valid: (json: Record<string, unknown>) => boolean,
) {
  const json = jsonOf(snapshot);
  return check(
    name,
    json !== undefined && valid(json),
    `${path} is served`,
    json ? `${path} is JSON but not the expected document` : `GET ${path} answered ${snapshot.status}`,
  );
}

export function scoreCloudflare(observation: Observation): YardstickScore {
  const doc = (path: string) => observation.documents[path] ?? MISSING;
  const robots = doc(CLOUDFLARE_PATHS.robots);

  const discoverability = [
    robotsCheck(robots),
    sitemapCheck(robots, doc(CLOUDFLARE_PATHS.sitemap)),
    linkHeaderCheck(observation.home),
  ];
  const content = markdownCheck(observation.homeMarkdown);
  const botAccess = [aiBotRulesCheck(robots), contentSignalsCheck(robots)];
  const integration = [
    wellKnownCheck("MCP server card", CLOUDFLARE_PATHS.mcpServerCard, doc(CLOUDFLARE_PATHS.mcpServerCard), (json) =>
      Boolean(json.serverInfo ?? json.name),
    ),
    wellKnownCheck("A2A agent card", CLOUDFLARE_PATHS.a2aAgentCard, doc(CLOUDFLARE_PATHS.a2aAgentCard), (json) =>
      Boolean(json.name && json.url),
    ),
    wellKnownCheck("Agent Skills index", CLOUDFLARE_PATHS.agentSkills, doc(CLOUDFLARE_PATHS.agentSkills), (json) =>
      Array.isArray(json.skills),
    ),
    wellKnownCheck("API catalog", CLOUDFLARE_PATHS.apiCatalog, doc(CLOUDFLARE_PATHS.apiCatalog), (json) =>
      Array.isArray(json.linkset),
    ),
  ];
  const oauthMetadata = [CLOUDFLARE_PATHS.oauthAuthorizationServer, CLOUDFLARE_PATHS.openidConfiguration].find(
    (path) => jsonOf(doc(path)) !== undefined,
  );
  const auth = [
    check(
      "OAuth discovery",
      oauthMetadata !== undefined,
      `${oauthMetadata} is served`,
      "no OAuth or OpenID discovery metadata (Sundown authenticates with API keys, not OAuth)",
    ),
    wellKnownCheck(
      "OAuth protected resource",
      CLOUDFLARE_PATHS.oauthProtectedResource,
      doc(CLOUDFLARE_PATHS.oauthProtectedResource),
      (json) => Boolean(json.resource),
    ),
  ];
  const neutral: CheckResult[] = ["Web Bot Auth", "WebMCP", "commerce (x402, UCP, ACP, AP2)"].map((name) => ({
    name,
    outcome: "neutral",
    reason: "not scored by the scanner for a site without bots of its own or checkout",
  }));

  const passed = (results: CheckResult[]) => results.filter((result) => result.outcome === "pass").length;
  const levels = [
    passed(discoverability) >= 2,
    passed(botAccess) === botAccess.length,
    content.outcome === "pass",
    passed(integration) >= 1,
    // Web Bot Auth is neutral here, so the two of three are the other two.
    [passed(integration) === integration.length, passed(auth) >= 1].filter(Boolean).length >= 2,
  ];
  const level = levels.findIndex((met) => !met);
  const reached = level === -1 ? levels.length : level;
  const scored = [...discoverability, content, ...botAccess, ...integration, ...auth];
  return {
    yardstick: "Cloudflare agent readiness",
    score: reached,
    max: 5,
    verdict: `Level ${reached} (${LEVEL_NAMES[reached]}); ${passed(scored)}/${scored.length} checks pass`,
    checks: [...scored, ...neutral],
  };
}
