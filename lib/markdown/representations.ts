import type { KeyedOperationName, OperationOutput } from "@/lib/operations/table";
import { renderBriefingMarkdown } from "./briefing";
import { renderReportMarkdown } from "./report";

/** The keyed operations that also answer Accept: text/markdown, and how their output reads as markdown. */
export const MARKDOWN_REPRESENTATIONS: { [N in KeyedOperationName]?: (output: OperationOutput<N>) => string } = {
  get_report: renderReportMarkdown,
  briefing: renderBriefingMarkdown,
};
