import { check, type CheckResult, type McpListing, type Observation, type YardstickScore } from "./types";

// Smithery's quality score for a listed MCP server. Smithery publishes the categories and points on each
// server's page, not a specification; these are as catalogued in the "optimizing-smithery-score" skill
// (https://eliteai.tools/agent-skills/optimizing-smithery-score): tool quality (descriptions 14, parameter
// descriptions 12, annotations 9, output schemas 10), server capabilities (prompts 5, resources 5) and server
// metadata (description 10, homepage 10, icon 7, display name 3). Its configuration-UX points (a config schema
// for a hosted deployment) and the unnamed remainders do not apply to a remote server reached with an API key,
// so the maximum here is what can be checked: 85. A share of tools earns the same share of the points.

const POINTS = {
  toolDescriptions: 14,
  parameterDescriptions: 12,
  annotations: 9,
  outputSchemas: 10,
  prompts: 5,
  resources: 5,
  description: 10,
  homepage: 10,
  icon: 7,
  displayName: 3,
} as const;

interface Scored {
  check: CheckResult;
  points: number;
}

function share(name: string, points: number, held: number, of: number, what: string): Scored {
  const earned = of === 0 ? 0 : Math.round((points * held * 10) / of) / 10;
  return {
    check: check(
      `${name} (${earned}/${points})`,
      held === of && of > 0,
      `${held}/${of} ${what}`,
      `${held}/${of} ${what}`,
    ),
    points: earned,
  };
}

function whole(name: string, points: number, ok: boolean, passed: string, failed: string): Scored {
  return { check: check(`${name} (${ok ? points : 0}/${points})`, ok, passed, failed), points: ok ? points : 0 };
}

function scoreListing(mcp: McpListing): Scored[] {
  const parameters = mcp.tools.flatMap((tool) =>
    Object.values((tool.inputSchema?.properties ?? {}) as Record<string, { description?: unknown }>),
  );
  const { serverInfo } = mcp;
  const description = serverInfo.description ?? mcp.instructions;
  return [
    share(
      "tool descriptions",
      POINTS.toolDescriptions,
      mcp.tools.filter((t) => t.description).length,
      mcp.tools.length,
      "tools described",
    ),
    share(
      "parameter descriptions",
      POINTS.parameterDescriptions,
      parameters.filter((p) => typeof p.description === "string").length,
      parameters.length,
      "input properties described",
    ),
    share(
      "annotations",
      POINTS.annotations,
      mcp.tools.filter((t) => t.annotations).length,
      mcp.tools.length,
      "tools annotated",
    ),
    share(
      "output schemas",
      POINTS.outputSchemas,
      mcp.tools.filter((t) => t.outputSchema).length,
      mcp.tools.length,
      "tools with outputSchema",
    ),
    whole(
      "prompts",
      POINTS.prompts,
      mcp.prompts.length > 0,
      `${mcp.prompts.length} prompt(s)`,
      "prompts/list is empty",
    ),
    whole(
      "resources",
      POINTS.resources,
      mcp.resources.length > 0,
      `${mcp.resources.length} resource(s)`,
      "resources/list is empty",
    ),
    whole(
      "description",
      POINTS.description,
      Boolean(description),
      "serverInfo says what the server does",
      "no serverInfo description or instructions",
    ),
    whole(
      "homepage",
      POINTS.homepage,
      Boolean(serverInfo.websiteUrl),
      `websiteUrl ${serverInfo.websiteUrl}`,
      "no serverInfo.websiteUrl",
    ),
    whole("icon", POINTS.icon, (serverInfo.icons?.length ?? 0) > 0, "serverInfo.icons", "no serverInfo.icons"),
    whole(
      "display name",
      POINTS.displayName,
      Boolean(serverInfo.title),
      `title "${serverInfo.title}"`,
      "no serverInfo.title",
    ),
  ];
}

export function scoreSmithery(observation: Observation): YardstickScore {
  const max = Object.values(POINTS).reduce((sum, points) => sum + points, 0);
  const yardstick = "Smithery listing";
  if ("error" in observation.mcp) {
    return {
      yardstick,
      score: 0,
      max,
      verdict: "MCP unreachable",
      checks: [check("connect", false, "", observation.mcp.error)],
    };
  }
  const scored = scoreListing(observation.mcp);
  const score = Math.round(scored.reduce((sum, s) => sum + s.points, 0) * 10) / 10;
  return { yardstick, score, max, verdict: `${score}/${max} checkable points`, checks: scored.map((s) => s.check) };
}
