import type { GetPromptResult } from "@modelcontextprotocol/server";
import type { Briefing } from "@/lib/schemas/briefing";
import { PROVENANCE_META } from "./provenance";

// The prompts' data: the period's briefing (get_briefing's answer) as one JSON resource beside their instructions, so
// text written by people never reads as part of them, and the model summarises what the server computed.

/** Where the attached briefing says it comes from: its period, as get_briefing takes it. */
function briefingUri(briefing: Briefing): string {
  const { since, until } = briefing.period;
  return `sundown://briefing?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
}

export function briefingMessage(briefing: Briefing): GetPromptResult["messages"][number] {
  return {
    role: "user",
    content: {
      type: "resource",
      resource: {
        uri: briefingUri(briefing),
        mimeType: "application/json",
        text: JSON.stringify(briefing, null, 2),
        _meta: PROVENANCE_META,
      },
    },
  };
}
