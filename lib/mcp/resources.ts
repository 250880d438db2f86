import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { ApiError } from "@/lib/errors";
import { reportIdParameter } from "@/lib/operations/parameters";
import { REPORT_LIMIT, reportListSchema, reportSchema } from "@/lib/schemas/reports";
import { toMcpError } from "./errors";
import { resourceMetadata, type ResourceDefinition, type ResourceTemplateDefinition } from "./primitive-definitions";
import { PROVENANCE_META } from "./provenance";
import type { SundownSource } from "./source";
import type { Registration } from "./tools";
import { NEEDS_REPORTS_READ } from "./scope-note";

// Reports as resources, for clients that attach context rather than call tools. Contents are the same JSON
// as the REST API returns; report text stays inside the contents, never in names or descriptions.

export const JSON_MIME = "application/json";

export const LATEST_REPORTS_RESOURCE = {
  name: "latest_reports",
  uri: "sundown://reports/latest",
  title: "Latest end-of-day reports",
  description: `Summaries of the ${REPORT_LIMIT.default} most recent reports (id, scope, generated_at, headline), newest first. ${NEEDS_REPORTS_READ}`,
  mimeType: JSON_MIME,
} satisfies ResourceDefinition;

export const REPORT_RESOURCE_TEMPLATE = {
  name: "report",
  uriTemplate: "sundown://reports/{id}",
  title: "End-of-day report",
  description: `One report in full (headline, kpi_status, shipped, silent, slipping, blockers) by id. ${NEEDS_REPORTS_READ}`,
  mimeType: JSON_MIME,
} satisfies ResourceTemplateDefinition;

function reportUri(id: string): string {
  return REPORT_RESOURCE_TEMPLATE.uriTemplate.replace("{id}", id);
}

export function jsonContents(uri: URL, data: unknown): ReadResourceResult {
  return {
    contents: [{ uri: uri.href, mimeType: JSON_MIME, text: JSON.stringify(data, null, 2), _meta: PROVENANCE_META }],
  };
}

export function registerReportResources(
  server: McpServer,
  source: SundownSource,
  { hooks, icons }: Registration,
): void {
  server.registerResource(
    LATEST_REPORTS_RESOURCE.name,
    LATEST_REPORTS_RESOURCE.uri,
    resourceMetadata(LATEST_REPORTS_RESOURCE, icons),
    async (uri) => {
      try {
        return jsonContents(
          uri,
          reportListSchema.parse(await source.answer("list_reports", { limit: REPORT_LIMIT.default })),
        );
      } catch (error) {
        throw toMcpError(error, LATEST_REPORTS_RESOURCE.uri, hooks);
      }
    },
  );

  const template = new ResourceTemplate(REPORT_RESOURCE_TEMPLATE.uriTemplate, {
    // Lists the recent reports so clients can offer them; a key without reports:read simply sees none.
    list: async () => {
      try {
        const { reports } = await source.answer("list_reports", { limit: REPORT_LIMIT.default });
        return {
          resources: reports.map((r) => ({
            uri: reportUri(r.id),
            name: `report-${r.generated_at}`,
            title: `${r.scope} report, ${r.generated_at}`,
            mimeType: JSON_MIME,
            icons,
          })),
        };
      } catch (error) {
        if (error instanceof ApiError && error.code === "insufficient_scope") return { resources: [] };
        throw toMcpError(error, REPORT_RESOURCE_TEMPLATE.uriTemplate, hooks);
      }
    },
  });
  server.registerResource(
    REPORT_RESOURCE_TEMPLATE.name,
    template,
    resourceMetadata(REPORT_RESOURCE_TEMPLATE, icons),
    async (uri, variables) => {
      try {
        return jsonContents(
          uri,
          reportSchema.parse(await source.answer("get_report", { id: reportIdParameter.parse(variables.id) })),
        );
      } catch (error) {
        throw toMcpError(error, REPORT_RESOURCE_TEMPLATE.uriTemplate, hooks, uri);
      }
    },
  );
}
