import type { Briefing } from "@/lib/schemas/briefing";

/**
 * What a prompt asks a model: our instructions, and the period's briefing (get_briefing's answer) they are about.
 * The surface sends the briefing apart from the instructions (MCP: as a JSON resource), so text written by people
 * never reads as part of them, and the model summarises what the server computed.
 */
export interface BriefingPrompt {
  /** A line saying what the prompt came to, where there is one. */
  description?: string;
  instructions: string;
  /** Absent when there was nothing to summarise: the instructions then say so. */
  briefing?: Briefing;
}
