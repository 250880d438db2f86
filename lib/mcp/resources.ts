import { ResourceTemplate, type McpServer, type ReadResourceResult } from "@modelcontextprotocol/server";
import { DAY_MAX_REPORTS, recentDays, reportsOfDay } from "@/lib/digests/reports-of-day";
import { LATEST_REPORTS, latestReports, offeredReports, reportById } from "@/lib/digests/reports";
import { toMcpError } from "./errors";
import { resourceMetadata, type ResourceDefinition, type ResourceTemplateDefinition } from "./primitive-definitions";
import { PROVENANCE_META } from "./provenance";
import type { SundownSource } from "./source";
import type { Registration } from "./tools";
import { NEEDS_REPORTS_READ } from "./scope-note";

// Reports as resources, for clients that attach context rather than call tools, over the digests in lib/digests.
// Contents are the same JSON as the REST API returns; report text stays inside the contents, never in names or
// descriptions (a day's names and titles carry only dates).

const JSON_MIME = "application/json";

export const LATEST_REPORTS_RESOURCE = {
  name: "latest_reports",
  uri: "sundown://reports/latest",
  title: "Latest end-of-day reports",
  description: `Summaries of the ${LATEST_REPORTS} most recent reports (id, scope, generated_at, headline), newest first. ${NEEDS_REPORTS_READ}`,
  mimeType: JSON_MIME,
} satisfies ResourceDefinition;

export const REPORT_RESOURCE_TEMPLATE = {
  name: "report",
  uriTemplate: "sundown://reports/{id}",
  title: "End-of-day report",
  description: `One report in full (headline, kpi_status, shipped, silent, slipping, blockers) by id. ${NEEDS_REPORTS_READ}`,
  mimeType: JSON_MIME,
} satisfies ResourceTemplateDefinition;

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

function jsonContents(uri: URL, data: unknown): ReadResourceResult {
  return {
    contents: [{ uri: uri.href, mimeType: JSON_MIME, text: JSON.stringify(data, null, 2), _meta: PROVENANCE_META }],
  };
}

/**
 * A resource's list or read handler whose failures are JSON-RPC errors naming `primitive`; a template's read also
 * names the URI it was asked for (its first argument), so a report that does not exist is reported with it.
 */
function failingAs<A extends unknown[], R>(
  primitive: string,
  { hooks }: Registration,
  handle: (...args: A) => Promise<R>,
  namesUri = false,
) {
  return async (...args: A): Promise<R> => {
    try {
      return await handle(...args);
    } catch (error) {
      throw toMcpError(error, primitive, hooks, namesUri ? (args[0] as URL) : undefined);
    }
  };
}

export function registerResources(server: McpServer, source: SundownSource, registration: Registration): void {
  const { icons } = registration;
  const latest = LATEST_REPORTS_RESOURCE;
  server.registerResource(
    latest.name,
    latest.uri,
    resourceMetadata(latest, icons),
    failingAs(latest.uri, registration, async (uri: URL) => jsonContents(uri, await latestReports(source))),
  );

  const report = REPORT_RESOURCE_TEMPLATE;
  // Lists the recent reports so clients can offer them.
  const list = async () => ({
    resources: (await offeredReports(source)).map((r) => ({
      uri: report.uriTemplate.replace("{id}", r.id),
      name: `report-${r.generated_at}`,
      title: `${r.scope} report, ${r.generated_at}`,
      mimeType: JSON_MIME,
      icons,
    })),
  });
  server.registerResource(
    report.name,
    new ResourceTemplate(report.uriTemplate, { list: failingAs(report.uriTemplate, registration, list) }),
    resourceMetadata(report, icons),
    failingAs(
      report.uriTemplate,
      registration,
      async (uri: URL, { id }) => jsonContents(uri, await reportById(source, id)),
      true,
    ),
  );

  const day = REPORTS_OF_DAY_TEMPLATE;
  const days = async () => {
    const { days, zone } = await recentDays(source);
    return {
      resources: days.map((date) => ({
        uri: day.uriTemplate.replace("{date}", date),
        name: `reports-${date}`,
        title: `Reports of ${date} (${zone})`,
        description: `Summaries of the reports generated on ${date} (${zone}), newest first.`,
        mimeType: JSON_MIME,
        icons,
      })),
    };
  };
  const dayTemplate = new ResourceTemplate(day.uriTemplate, {
    list: failingAs(day.uriTemplate, registration, days),
    complete: {
      date: async (typed) => (await recentDays(source)).days.filter((d) => d.startsWith(typed ?? "")),
    },
  });
  server.registerResource(
    day.name,
    dayTemplate,
    resourceMetadata(day, icons),
    failingAs(
      day.uriTemplate,
      registration,
      async (uri: URL, { date }) => jsonContents(uri, await reportsOfDay(source, date)),
      true,
    ),
  );
}
