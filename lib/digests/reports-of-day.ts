import { ApiError } from "@/lib/errors";
import { sinceParameter, untilParameter } from "@/lib/operations/parameters";
import type { ReportFilterInput } from "@/lib/operations/table";
import { REPORT_LIMIT, reportListSchema } from "@/lib/schemas/reports";
import { calendarDayIn } from "@/lib/schemas/time-zone";
import { walkSummaries } from "./report-pages";
import { orNoneWithoutScope, timeZoneOf, type OperationSource } from "./source";

// One day's report summaries, the day counted in the organization's time zone: GET
// /api/v1/reports?since=<date>&until=<date> with every page read (up to a bound).

/** Summaries per day at most; past it, next_cursor continues with list_reports. */
export const DAY_MAX_REPORTS = 250;
/** Days offered: those of the newest reports. */
const RECENT_DAYS = 7;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_RULE = "date must be a calendar date such as 2026-11-20 (a whole day in the organization's time zone).";

/** The day's bounds as list_reports takes them (a day, which it counts in the zone); refusals are invalid_parameter. */
function parseDay(value: unknown): Required<Pick<ReportFilterInput, "since" | "until">> {
  if (typeof value !== "string" || !DATE.test(value)) throw new ApiError("invalid_parameter", DATE_RULE);
  try {
    return { since: sinceParameter.parse(value)!, until: untilParameter.parse(value)! };
  } catch {
    throw new ApiError("invalid_parameter", DATE_RULE);
  }
}

/** The days of the newest reports in the organization's zone, newest first, and the zone; none without reports:read. */
export async function recentDays(source: OperationSource): Promise<{ days: string[]; zone: string }> {
  const read = async () => {
    const [{ reports }, zone] = await Promise.all([
      source.answer("list_reports", { limit: REPORT_LIMIT.max }),
      timeZoneOf(source),
    ]);
    const days = [...new Set(reports.map((r) => calendarDayIn(r.generated_at, zone)))].slice(0, RECENT_DAYS);
    return { days, zone };
  };
  return orNoneWithoutScope(read(), { days: [], zone: "UTC" });
}

/** `{date, reports, count, next_cursor}`: up to DAY_MAX_REPORTS summaries of the day's reports, newest first. */
export async function reportsOfDay(source: OperationSource, date: unknown) {
  const walk = await walkSummaries(source, parseDay(date), DAY_MAX_REPORTS);
  const list = reportListSchema.parse({ ...walk, count: walk.reports.length });
  return { date: date as string, ...list };
}
