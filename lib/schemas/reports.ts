import { z } from "zod";
import { timestamp, uuid } from "./common";

const REPORT_SCOPES = ["org", "lead", "member"] as const;
export const reportScopeSchema = z.enum(REPORT_SCOPES);
export type ReportScope = z.infer<typeof reportScopeSchema>;

export const REPORT_LIMIT = { min: 1, max: 50, default: 14 } as const;

export const reportLimitSchema = z
  .int()
  .min(REPORT_LIMIT.min)
  .max(REPORT_LIMIT.max)
  .default(REPORT_LIMIT.default)
  .meta({ description: "How many reports to return, most recent first." });

// Items of the five report sections are free-form objects written by people or tools.
const reportItem = z.looseObject({});

export const reportContentSchema = z
  .looseObject({
    headline: z.string(),
    kpi_status: z.array(reportItem),
    shipped: z.array(reportItem),
    silent: z.array(reportItem),
    slipping: z.array(reportItem),
    blockers: z.array(reportItem),
  })
  .meta({ id: "ReportContent", description: "The structured end-of-day report; may contain additional properties." });

export type ReportContent = z.infer<typeof reportContentSchema>;

export const reportSummarySchema = z
  .object({
    id: uuid,
    scope: reportScopeSchema,
    scope_target_id: uuid.nullable().meta({ description: "The lead or member the report is aimed at, if any." }),
    generated_at: timestamp,
    headline: z.string().nullable(),
    report: reportContentSchema
      .optional()
      .meta({ description: "The report's full content, only when the list is asked with expand=report." }),
  })
  .meta({ id: "ReportSummary" });

export const reportSchema = reportSummarySchema
  .pick({ id: true, scope: true, scope_target_id: true, generated_at: true })
  .extend({ report: reportContentSchema })
  .meta({ id: "Report" });

export const reportListSchema = z
  .object({
    reports: z.array(reportSummarySchema),
    count: z.int().meta({ description: "Number of reports in this response." }),
    next_cursor: z.string().nullable().meta({
      description:
        "Pass it as `cursor`, with the same filters, for the next page; null on the last page. Opaque, and bound to this organization and these filters.",
      example: "WzEsIjVkMGUwMDAxLTAwMDEi…",
    }),
    truncated: z.literal(true).optional().meta({
      description:
        "Present (true) only when whole reports (expand=report) filled the page before `limit`: the page holds fewer, and next_cursor continues after them.",
    }),
  })
  .meta({ id: "ReportList" });

export type Report = z.infer<typeof reportSchema>;
export type ReportList = z.infer<typeof reportListSchema>;
export type ReportSummary = z.infer<typeof reportSummarySchema>;
