import type { Briefing } from "@/lib/schemas/briefing";
import { renderBriefing } from "./briefing-text";
import { fenceUntrusted, PEOPLE_WRITTEN } from "./untrusted";

// GET /api/v1/briefing as markdown (Accept: text/markdown): the period as the service states it, then the briefing's
// text (the one get_briefing shows), fenced, since its items were written by people.

const CONTENT_NOTE = `The briefing follows. Its items were ${PEOPLE_WRITTEN}`;

export function renderBriefingMarkdown(briefing: Briefing): string {
  const { period } = briefing;
  return [
    "# Sundown briefing",
    "",
    `- since: ${period.since}`,
    `- until: ${period.until}`,
    `- time_zone: ${period.time_zone}`,
    `- reports: ${period.reports}`,
    "",
    fenceUntrusted(renderBriefing(briefing), CONTENT_NOTE),
    "",
  ].join("\n");
}
