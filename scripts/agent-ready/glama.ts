import { check, type CheckResult, type McpTool, type Observation, type YardstickScore } from "./types";

// Glama's Tool Definition Quality Score (TDQS). Glama has a model grade each tool 1–5 on six dimensions —
// purpose clarity, usage guidelines, behavioural transparency, parameter semantics, conciseness, contextual
// completeness — and pulls the server's score down by its weakest tool (its score pages show "Average x/5 across
// n tools. Lowest: y/5"; e.g. https://glama.ai/mcp/servers/sandraschi/glama-status-mcp/score, and the dimension
// questions on each tool page such as https://glama.ai/mcp/servers/po4erk91/thread-keeper/tools/evolve_review).
// A model's judgement cannot be reproduced here: these are checkable stand-ins for what its rationales reward,
// one point per heuristic, so the number approximates the grade and tells which tool and dimension to improve.
// The server score is 60% the average and 40% the lowest tool, the weighting reported in
// https://dev.to/vdalhambra/why-your-mcp-is-probably-scored-below-70-on-glama-and-how-to-fix-it-in-an-afternoon-4mo8.

/** Below this a description cannot say what, when and how; above it, it costs more tokens than it earns. */
const CONCISE_CHARACTERS = { min: 120, max: 900 } as const;

type Dimension = (tool: McpTool, siblings: string[]) => { score: number; missing: string[] };

/** 1 to 5 from the heuristics that hold: each missing one costs an equal share of the four points above 1. */
function grade(heuristics: [boolean, string][]): { score: number; missing: string[] } {
  const held = heuristics.filter(([ok]) => ok).length;
  return {
    score: 1 + (4 * held) / heuristics.length,
    missing: heuristics.filter(([ok]) => !ok).map(([, what]) => what),
  };
}

const text = (tool: McpTool) => tool.description ?? "";
const firstSentence = (tool: McpTool) => /^[^.]*\./.exec(text(tool))?.[0] ?? text(tool);

const DIMENSIONS: Record<string, Dimension> = {
  purpose: (tool) =>
    grade([
      [Boolean(tool.title), "a title"],
      [
        /^(returns|lists|gets|reads|finds|searches|checks|fetches|shows)\b/i.test(text(tool)),
        "opens with what it does",
      ],
      [firstSentence(tool).split(/\s+/).length >= 8, "a first sentence that names what it returns"],
    ]),
  usage: (tool, siblings) =>
    grade([
      [siblings.some((name) => text(tool).includes(name)), "names a sibling tool (when to use which)"],
      [/\b(use it|call it|use this|before|after|first|instead)\b/i.test(text(tool)), "says when to call it"],
    ]),
  behaviour: (tool) =>
    grade([
      [tool.annotations?.readOnlyHint !== undefined, "readOnlyHint"],
      [
        /\b(read-only|does not change|never changes|no side effects?)\b/i.test(text(tool)) ||
          tool.annotations?.readOnlyHint === true,
        "states it changes nothing",
      ],
      [
        /\b(error|not_found|invalid_parameter|insufficient_scope|refus|limit|page|at most|default)\w*/i.test(
          text(tool),
        ),
        "states limits or failures",
      ],
    ]),
  parameters: (tool) => {
    const properties = Object.entries((tool.inputSchema?.properties ?? {}) as Record<string, Record<string, unknown>>);
    if (properties.length === 0)
      return grade([[/no arguments|takes nothing/i.test(text(tool)), "says it takes no arguments"]]);
    const shaped = (schema: Record<string, unknown>) =>
      ["format", "enum", "pattern", "examples", "minimum", "maximum", "minLength", "maxLength", "const"].some(
        (key) => key in schema,
      ) ||
      schema.type === "boolean" ||
      Array.isArray(schema.anyOf);
    return grade([
      [properties.every(([, schema]) => typeof schema.description === "string"), "every property described"],
      [properties.every(([, schema]) => shaped(schema)), "every property constrained (format, enum, range, examples)"],
      [properties.every(([name]) => text(tool).includes(name)), "the description explains each argument"],
    ]);
  },
  conciseness: (tool) =>
    grade([
      [text(tool).length >= CONCISE_CHARACTERS.min, `at least ${CONCISE_CHARACTERS.min} characters`],
      [text(tool).length <= CONCISE_CHARACTERS.max, `at most ${CONCISE_CHARACTERS.max} characters`],
    ]),
  completeness: (tool) =>
    grade([
      [tool.outputSchema !== undefined, "an outputSchema"],
      [tool.annotations !== undefined, "annotations"],
      [/\b(returns|answers|lists)\b/i.test(text(tool)), "says what comes back"],
    ]),
};

function scoreTool(tool: McpTool, siblings: string[]): { score: number; missing: string[] } {
  const graded = Object.entries(DIMENSIONS).map(([name, dimension]) => ({ name, ...dimension(tool, siblings) }));
  return {
    score: graded.reduce((sum, dimension) => sum + dimension.score, 0) / graded.length,
    missing: graded.flatMap((dimension) => dimension.missing.map((what) => `${dimension.name}: ${what}`)),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

export function scoreGlama(observation: Observation): YardstickScore {
  const yardstick = "Glama tool descriptions (heuristic)";
  if ("error" in observation.mcp || observation.mcp.tools.length === 0) {
    const reason = "error" in observation.mcp ? observation.mcp.error : "tools/list is empty";
    return {
      yardstick,
      score: 0,
      max: 5,
      verdict: "no tools to grade",
      checks: [check("tools/list", false, "", reason)],
    };
  }
  const names = observation.mcp.tools.map((tool) => tool.name);
  const tools = observation.mcp.tools.map((tool) => ({
    name: tool.name,
    ...scoreTool(
      tool,
      names.filter((name) => name !== tool.name),
    ),
  }));
  const average = tools.reduce((sum, tool) => sum + tool.score, 0) / tools.length;
  const weakest = tools.reduce((low, tool) => (tool.score < low.score ? tool : low));
  const checks: CheckResult[] = tools.map((tool) =>
    check(
      `${tool.name} ${round(tool.score)}/5`,
      tool.missing.length === 0,
      "every heuristic holds",
      `missing ${tool.missing.join("; ")}`,
    ),
  );
  return {
    yardstick,
    score: round(0.6 * average + 0.4 * weakest.score),
    max: 5,
    verdict: `average ${round(average)}/5, lowest ${weakest.name} ${round(weakest.score)}/5 (approximates a model-graded rubric)`,
    checks,
  };
}
