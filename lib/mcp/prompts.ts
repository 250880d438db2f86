import { completable, type GetPromptResult, type McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { BriefingPrompt } from "@/lib/digests/briefing-prompt";
import { LEAD_BRIEF, leadBrief, leadBriefCount } from "@/lib/digests/lead-brief";
import { completeScope, completeScopeTargetId, periodRollup, ROLLUP } from "@/lib/digests/period-rollup";
import { requireKnownNames } from "@/lib/operations/input";
import type { Briefing } from "@/lib/schemas/briefing";
import { toMcpError } from "./errors";
import type { PromptDefinition } from "./primitive-definitions";
import { PROVENANCE_META } from "./provenance";
import type { SundownSource } from "./source";
import type { Registration } from "./tools";
import { NEEDS_REPORTS_READ } from "./scope-note";

// The prompts, over the digests in lib/digests: each sends our instructions as text and the period's briefing as one
// JSON resource beside them.

/** Where the attached briefing says it comes from: its period, as get_briefing takes it. */
function briefingUri(briefing: Briefing): string {
  const { since, until } = briefing.period;
  return `sundown://briefing?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
}

function promptResult({ description, instructions, briefing }: BriefingPrompt): GetPromptResult {
  const messages: GetPromptResult["messages"] = [{ role: "user", content: { type: "text", text: instructions } }];
  if (briefing) {
    const text = JSON.stringify(briefing, null, 2);
    const resource = { uri: briefingUri(briefing), mimeType: "application/json", text, _meta: PROVENANCE_META };
    messages.push({ role: "user", content: { type: "resource", resource } });
  }
  return { ...(description !== undefined && { description }), messages };
}

// Loose, so that an argument it does not define reaches the handler and is refused there, as list_reports refuses one.
const leadBriefArguments = z.looseObject({
  count: leadBriefCount.optional().meta({
    description: `How many of the latest reports to read, 1 to ${LEAD_BRIEF.maxCount} (default ${LEAD_BRIEF.defaultCount}).`,
  }),
});

export const LEAD_BRIEF_PROMPT = {
  name: "lead_brief",
  title: "Lead brief: blockers and slipping work",
  description: `Turns the latest end-of-day reports into a short brief for a lead: blockers, slipping work, quiet people, KPIs at risk and follow-ups, from the briefing (get_briefing) over the period they span, never whole reports. ${NEEDS_REPORTS_READ}`,
  argsSchema: leadBriefArguments,
} satisfies PromptDefinition;

/** An optional string argument with a completer (the SDK finds a completer inside an optional schema). */
function completableArgument(
  description: string,
  complete: (typed: string | undefined) => Promise<string[]> | string[],
) {
  return completable(z.string(), complete).optional().meta({ description });
}

// Prompt arguments arrive as strings; they are judged in the handler (lib/digests/period-rollup.ts), so a refusal
// is REST's invalid_parameter in REST's words rather than the SDK's zod message. Names are list_reports' where it
// has the argument. The object is loose so that a name it does not define reaches the handler, which refuses it:
// dropped here, a misspelt filter would roll up the whole organization without a word. Without a source (the
// arguments as listed), ids complete to nothing.
function rollupArguments(source?: SundownSource) {
  return z.looseObject({
    days: z
      .string()
      .optional()
      .meta({
        description: `How many days, today included, in the organization's time zone: 1 to ${ROLLUP.maxDays} (default ${ROLLUP.defaultDays}).`,
      }),
    scope: completableArgument("Only reports of this scope: org, lead or member.", completeScope),
    scope_target_id: completableArgument(
      "Only the reports about this lead or member: their id from list_team.",
      (typed) => (source ? completeScopeTargetId(source, typed) : []),
    ),
  });
}

export const PERIOD_ROLLUP_PROMPT = {
  name: "period_rollup",
  title: "Period rollup: a week's (or month's) reports",
  description:
    `Rolls up the end-of-day reports of the last days (default ${ROLLUP.defaultDays}, up to ${ROLLUP.maxDays}) ` +
    "for the organization, one scope, or one lead or member (scope_target_id, an id from list_team): shipped work, slipping " +
    "work, blockers, quiet people, KPI trends and follow-ups, from the period's briefing (get_briefing), attached as " +
    `JSON: never whole reports. ${NEEDS_REPORTS_READ}`,
  argsSchema: rollupArguments(),
} satisfies PromptDefinition;

/** A prompt's handler: refuses an argument `known` does not name, answers with `digest`, fails as a JSON-RPC error. */
function answeredBy<A extends object>(
  name: string,
  known: z.ZodObject,
  { hooks }: Registration,
  digest: (args: A) => Promise<BriefingPrompt>,
) {
  return async (args: A): Promise<GetPromptResult> => {
    try {
      requireKnownNames(Object.keys(args), name, Object.keys(known.shape));
      return promptResult(await digest(args));
    } catch (error) {
      throw toMcpError(error, name, hooks);
    }
  };
}

export function registerPrompts(server: McpServer, source: SundownSource, registration: Registration): void {
  const { icons } = registration;
  const brief = LEAD_BRIEF_PROMPT;
  server.registerPrompt(
    brief.name,
    { title: brief.title, description: brief.description, argsSchema: leadBriefArguments, icons },
    answeredBy(brief.name, leadBriefArguments, registration, (args: z.output<typeof leadBriefArguments>) =>
      leadBrief(source, args.count),
    ),
  );
  // The listed arguments, built again with completers that read this source.
  const rollup = PERIOD_ROLLUP_PROMPT;
  const argsSchema = rollupArguments(source);
  server.registerPrompt(
    rollup.name,
    { title: rollup.title, description: rollup.description, argsSchema, icons },
    answeredBy(rollup.name, argsSchema, registration, (args: z.output<typeof argsSchema>) =>
      periodRollup(source, args),
    ),
  );
}
