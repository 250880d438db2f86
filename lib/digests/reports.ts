import { reportIdParameter } from "@/lib/operations/parameters";
import { REPORT_LIMIT, reportListSchema, reportSchema, type ReportSummary } from "@/lib/schemas/reports";
import { orNoneWithoutScope, type OperationSource } from "./source";

// Reports as a client attaches them rather than asks for them: the latest few, or one by id. The contents are the
// same JSON as the REST API returns, parsed by its schemas on the way out.

/** How many of the latest reports are offered. */
export const LATEST_REPORTS = REPORT_LIMIT.default;

/** GET /api/v1/reports with the default page: summaries of the latest reports, newest first. */
export async function latestReports(source: OperationSource) {
  return reportListSchema.parse(await source.answer("list_reports", { limit: LATEST_REPORTS }));
}

/** The latest reports' summaries to offer a client; a key without reports:read simply sees none. */
export async function offeredReports(source: OperationSource): Promise<ReportSummary[]> {
  return orNoneWithoutScope(
    source.answer("list_reports", { limit: LATEST_REPORTS }).then((list) => list.reports),
    [],
  );
}

/** GET /api/v1/reports/{id}: one report in full; `id` is judged as REST judges the path's. */
export async function reportById(source: OperationSource, id: unknown) {
  return reportSchema.parse(await source.answer("get_report", { id: reportIdParameter.parse(id) }));
}
