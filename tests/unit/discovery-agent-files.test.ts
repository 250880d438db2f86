import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildAgentSkillsIndex, buildSkillMd, SKILL_NAME, skillUrl } from "@/lib/discovery/agent-skills";
import { buildApiCatalog } from "@/lib/discovery/api-catalog";
import { buildLlmsFullTxt } from "@/lib/discovery/llms-full-txt";
import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { discoveryLinkHeader } from "@/lib/discovery/links";
import { buildRobotsTxt } from "@/lib/discovery/robots-txt";
import { ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_STATUS } from "@/lib/errors";
import { endpointOf, KEYED_OPERATIONS, OPERATIONS } from "@/lib/operations/table";
import { parseLinks } from "../helpers/links";

// The files agents and crawlers look for (Cloudflare's agent-readiness checks): Link headers, robots.txt with
// Content Signals, llms-full.txt, and the Agent Skills index with its SKILL.md.

const BASE = "https://sundown.acme.test";

/** robots.txt groups as RFC 9309 reads them: the user agents of each, and its rule lines. */
function robotsGroups(text: string): { agents: string[]; rules: string[] }[] {
  const groups: { agents: string[]; rules: string[] }[] = [];
  let collectingAgents = false;
  for (const line of text.split("\n").map((l) => l.replace(/#.*/, "").trim())) {
    if (!line) continue;
    const [field, value] = [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()];
    if (field === "user-agent") {
      if (!collectingAgents) groups.push({ agents: [], rules: [] });
      groups.at(-1)!.agents.push(value);
      collectingAgents = true;
    } else {
      groups.at(-1)!.rules.push(`${field}: ${value}`);
      collectingAgents = false;
    }
  }
  return groups;
}

/** RFC 9309 §2.2.2: the longest matching rule wins, allow on a tie; no rule means allowed. */
function allowed(rules: string[], path: string): boolean {
  let best: { length: number; allow: boolean } = { length: -1, allow: true };
  for (const rule of rules) {
    const [field, pattern] = rule.split(": ") as [string, string];
    if (field !== "allow" && field !== "disallow") continue;
    const anchored = pattern.endsWith("$");
    const prefix = anchored ? pattern.slice(0, -1) : pattern;
    const matches = anchored ? path === prefix : path.startsWith(prefix);
    if (matches && (prefix.length > best.length || (prefix.length === best.length && field === "allow"))) {
      best = { length: prefix.length, allow: field === "allow" };
    }
  }
  return best.allow;
}

describe("the discovery Link header of /, /docs and /api/v1", () => {
  it("points at the API catalog, the OpenAPI document, the docs and their markdown, as the catalog declares them", () => {
    const links = parseLinks(discoveryLinkHeader(BASE));
    expect(links.map((l) => l.params.rel)).toEqual(["api-catalog", "service-desc", "service-doc", "alternate"]);
    expect(links[0]!.href).toBe(`${BASE}/.well-known/api-catalog`);
    const [api] = buildApiCatalog(BASE).linkset as Record<string, { href: string; type: string }[]>[];
    for (const link of links.slice(1)) {
      const declared = [...api!["service-desc"]!, ...api!["service-doc"]!].find((t) => t.href === link.href);
      expect(declared, link.href).toBeDefined();
      expect(link.params.type).toBe(declared!.type);
    }
    expect(links.find((l) => l.params.rel === "alternate")).toMatchObject({
      href: `${BASE}/docs.md`,
      params: { type: "text/markdown" },
    });
  });
});

describe("robots.txt", () => {
  const groups = robotsGroups(buildRobotsTxt());
  const everyone = groups.find((g) => g.agents.includes("*"))!;

  it("states Content Signals for every crawler: search and AI input yes, training no", () => {
    expect(everyone.rules).toContain("content-signal: search=yes, ai-input=yes, ai-train=no");
  });

  it("lets crawlers read the guide and discovery documents, not the API, the settings or sign-in", () => {
    for (const path of [
      "/",
      "/docs",
      "/docs.md",
      "/llms.txt",
      "/llms-full.txt",
      "/openapi.json",
      "/api/v1",
      "/.well-known/api-catalog",
      "/.well-known/agent-skills/index.json",
    ]) {
      expect(allowed(everyone.rules, path), path).toBe(true);
    }
    for (const path of ["/api/v1/reports", "/api/mcp", "/api/v1/", "/settings/api-keys", "/signin"]) {
      expect(allowed(everyone.rules, path), path).toBe(false);
    }
  });

  it("names AI agents explicitly, and keeps training crawlers out altogether", () => {
    expect(everyone.agents).toEqual(expect.arrayContaining(["ChatGPT-User", "Claude-User", "PerplexityBot"]));
    const training = groups.find((g) => g.agents.includes("GPTBot"))!;
    expect(training.agents).toEqual(expect.arrayContaining(["ClaudeBot", "CCBot", "Google-Extended"]));
    expect(allowed(training.rules, "/docs")).toBe(false);
  });
});

describe("llms-full.txt", () => {
  const text = buildLlmsFullTxt(BASE);

  it("is llms.txt followed by the reference of every operation and every error code", () => {
    expect(text.startsWith(buildLlmsTxt(BASE))).toBe(true);
    for (const operation of [OPERATIONS.root, ...KEYED_OPERATIONS]) {
      expect(text).toContain(`### ${endpointOf(operation)}`);
      for (const [name, parameter] of Object.entries(operation.parameters)) {
        expect(text).toContain(`\`${name}`);
        expect(text).toContain(parameter.rule);
      }
    }
    for (const code of ERROR_CODES) {
      expect(text).toContain(`| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_DESCRIPTIONS[code]} |`);
    }
    expect(text).toContain("Fields: `id`, `scope`, `scope_target_id`, `generated_at`, `report`.");
  });

  it("keeps llms.txt's one H1", () => {
    expect(text.split("\n").filter((l) => l.startsWith("# "))).toEqual(["# Sundown"]);
  });
});

describe("Agent Skills discovery", () => {
  const skill = buildSkillMd(BASE);
  const index = buildAgentSkillsIndex(BASE);

  it("has the v0.2.0 index shape: $schema, and a skill-md entry with name, description, url and digest", () => {
    expect(index).toEqual({
      $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills: [
        {
          name: SKILL_NAME,
          type: "skill-md",
          description: expect.any(String),
          url: `${BASE}/.well-known/agent-skills/sundown/SKILL.md`,
          digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        },
      ],
    });
    expect(SKILL_NAME).toMatch(/^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/);
    expect(index.skills[0]!.description.length).toBeLessThanOrEqual(1024);
  });

  it("digests exactly the SKILL.md bytes", () => {
    expect(index.skills[0]!.digest).toBe(`sha256:${createHash("sha256").update(skill).digest("hex")}`);
    expect(skillUrl(BASE)).toBe(index.skills[0]!.url);
  });

  it("SKILL.md opens with YAML front matter whose name and description are the index's", () => {
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(skill);
    expect(front).not.toBeNull();
    expect(front![1]).toBe(index.skills[0]!.name);
    expect(JSON.parse(front![2]!)).toBe(index.skills[0]!.description);
  });

  it("teaches the three jobs with the real operations, tools and parameters", () => {
    for (const job of ["## Weekly rollup", "## What slipped for one person", "## Who has been silent"]) {
      expect(skill).toContain(job);
    }
    for (const operation of KEYED_OPERATIONS) {
      expect(skill).toContain(`\`${endpointOf(operation)}\``);
      expect(skill).toContain(`\`${operation.tool!.name}\``);
    }
    expect(skill).toContain(
      'REST `GET /api/v1/reports?since=2026-11-16&until=2026-11-22&scope=member&scope_target_id=<member id>` · MCP `list_reports` `{"since":"2026-11-16","until":"2026-11-22","scope":"member","scope_target_id":"<member id>"}`',
    );
    expect(skill).toContain('REST `GET /api/v1/team?active=true` · MCP `list_team` `{"active":true}`');
    expect(skill).toContain('REST `GET /api/v1/reports/<report id>` · MCP `get_report` `{"id":"<report id>"}`');
  });

  it("every REST example names only parameters its operation takes", () => {
    for (const [, path, query] of skill.matchAll(/REST `GET ([^?`]+)\??([^`]*)`/g)) {
      const operation = KEYED_OPERATIONS.find((o) =>
        new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path!),
      );
      expect(operation, path).toBeDefined();
      for (const pair of query ? query.split("&") : []) {
        expect(Object.keys(operation!.parameters)).toContain(pair.split("=")[0]);
      }
    }
  });
});
