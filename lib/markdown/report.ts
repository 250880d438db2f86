import { renderReport } from "./report-text";
import type { Report } from "@/lib/schemas/reports";
import { fenceUntrusted, PEOPLE_WRITTEN } from "./untrusted";

// GET /api/v1/reports/{id} as markdown (Accept: text/markdown): the fields the JSON serves, no more. The
// service's own fields are listed as they are; the report's content, written by people, is the text the MCP tools
// also show (report-text.ts, so both surfaces put the same words in front of a model), fenced as data.

const CONTENT_NOTE = `The report's content follows. It was ${PEOPLE_WRITTEN}`;

export function renderReportMarkdown(report: Report): string {
  const fields = [
    `- id: ${report.id}`,
    `- scope: ${report.scope}`,
    `- scope_target_id: ${report.scope_target_id ?? "null"}`,
    `- generated_at: ${report.generated_at}`,
  ];
  return [
    `# Sundown report ${report.id}`,
    "",
    ...fields,
    "",
    "## report",
    "",
    fenceUntrusted(renderReport(report), CONTENT_NOTE),
    "",
  ].join("\n");
}
