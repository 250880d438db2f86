import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import { ApiError } from "@/lib/errors";
import { sinceParameter, untilParameter } from "@/lib/operations/parameters";
import type { ReportFilterInput } from "@/lib/operations/table";
import { REPORT_LIMIT, reportListSchema } from "@/lib/schemas/reports";
import { calendarDayIn } from "@/lib/schemas/time-zone";
import { toMcpError } from "./errors";
import { resourceMetadata, type ResourceTemplateDefinition } from "./primitive-definitions";
import { walkSummaries } from "./report-pages";
import { JSON_MIME, jsonContents } from "./resources";
import type { SundownSource } from "./source";
import type { Registration } from "./tools";
import { NEEDS_REPORTS_READ } from "./scope-note";

// sundown://reports/day/{date}: one day's report summaries, the day counted in the organization's time zone, for clients that browse resources. The contents
// are GET /api/v1/reports?since=<date>&until=<date> with every page read (up to a bound); names and titles carry
// only dates, never report text.

/** Summaries per day at most; past it, next_cursor continues with list_reports. */
const DAY_MAX_REPORTS = 250;
/** Days listed and offered for completion: those of the newest reports. */
const RECENT_DAYS = 7;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_RULE = "date must be a calendar date such as 2026-11-20 (a whole day in the organization's time zone).";

export const REPORTS_OF_DAY_TEMPLATE = {
  name: "reports_of_day",
  uriTemplate: "sundown://reports/day/{date}",
  title: "One day's end-of-day reports",
  description:
    "Summaries (id, scope, scope_target_id, generated_at, headline) of every report generated on one day in the " +
    "organization's time zone (UTC unless set; generated_at stays UTC), " +
    `newest first: {date, reports, count, next_cursor}. At most ${DAY_MAX_REPORTS}; past that, next_cursor ` +
    `continues with list_reports (since and until set to the date). ${NEEDS_REPORTS_READ}`,
  mimeType: JSON_MIME,
} satisfies ResourceTemplateDefinition;

function dayUri(date: string): string {
  return REPORTS_OF_DAY_TEMPLATE.uriTemplate.replace("{date}", date);
}

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
async function recentDays(source: SundownSource): Promise<{ days: string[]; zone: string }> {
  try {
    const [{ reports }, zone = "UTC"] = await Promise.all([
      source.answer("list_reports", { limit: REPORT_LIMIT.max }),
      source.timeZone?.(),
    ]);
    const days = [...new Set(reports.map((r) => calendarDayIn(r.generated_at, zone)))].slice(0, RECENT_DAYS);
    return { days, zone };
  } catch (error) {
    if (error instanceof ApiError && error.code === "insufficient_scope") return { days: [], zone: "UTC" };
    throw error;
  }
}

export function registerDayReports(server: McpServer, source: SundownSource, { hooks, icons }: Registration): void {
  const template = new ResourceTemplate(REPORTS_OF_DAY_TEMPLATE.uriTemplate, {
    list: async () => {
      try {
        const { days, zone } = await recentDays(source);
        return {
          resources: days.map((date) => ({
            uri: dayUri(date),
            name: `reports-${date}`,
            title: `Reports of ${date} (${zone})`,
            description: `Summaries of the reports generated on ${date} (${zone}), newest first.`,
            mimeType: JSON_MIME,
            icons,
          })),
        };
      } catch (error) {
        throw toMcpError(error, REPORTS_OF_DAY_TEMPLATE.uriTemplate, hooks);
      }
    },
    complete: {
      date: async (typed) => (await recentDays(source)).days.filter((d) => d.startsWith(typed ?? "")),
    },
  });
  server.registerResource(
    REPORTS_OF_DAY_TEMPLATE.name,
    template,
    resourceMetadata(REPORTS_OF_DAY_TEMPLATE, icons),
    async (uri, variables) => {
      try {
        const day = parseDay(variables.date);
        const walk = await walkSummaries(source, day, DAY_MAX_REPORTS);
        const list = reportListSchema.parse({ ...walk, count: walk.reports.length });
        return jsonContents(uri, { date: variables.date, ...list });
      } catch (error) {
        throw toMcpError(error, REPORTS_OF_DAY_TEMPLATE.uriTemplate, hooks, uri);
      }
    },
  );
}
