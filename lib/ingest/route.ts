import { formatImportIssues, IMPORT_LIMITS, ImportError, importReports } from "@/lib/data/import-reports";
import { ApiError } from "@/lib/errors";
import { readBodyText } from "@/lib/http/read-json-body";
import { JSON_CONTENT_TYPE } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { ingestAnswerSchema, type IngestAnswer } from "@/lib/schemas/ingest";
import { deliverSoon } from "@/lib/webhooks/soon";
import { admitIngestToken } from "./admit";
import { parseIngestBody, parseIngestQuery, requireJsonBody } from "./request";

// POST /ingest/v1/reports: the tools that write reports send them in with an ingest token. One code path with
// `sundown reports import` (lib/data/import-reports.ts): the same format, checks, limits and idempotency.
// Outside /api/v1, which stays GET-only and read-only. No CORS: a token is a server's secret, never a page's.
//
// The order of checks: token (401) → its rate limit (429) → media type (415) → query (400) → size (413, counted
// while streaming) → body (400) → stored reports in the way (409) → written, all or nothing (200).

const REQUEST_WORDING = {
  subject: "The request",
  replaceHint: "send it again with ?replace=true",
} as const;

/** An import's refusal as the API's error: 409 when only stored reports stand in the way, else 400. */
function asApiError(error: unknown): unknown {
  if (!(error instanceof ImportError)) return error;
  const message = formatImportIssues(error.issues, REQUEST_WORDING);
  return new ApiError(error.onlyConflicts ? "conflict" : "invalid_parameter", message);
}

export const postIngestReports = withRequest(
  async (request, context) => {
    const token = await admitIngestToken(request, context);
    requireJsonBody(request);
    const { replace } = parseIngestQuery(context.url.searchParams);
    const text = await readBodyText(request, IMPORT_LIMITS.maxBytes);
    let answer: IngestAnswer;
    try {
      const { reports } = parseIngestBody(text);
      const result = await importReports(token.organization, reports, {
        replace,
        actor: { label: `ingest token ${token.name}` },
      });
      answer = {
        reports: {
          added: result.added,
          unchanged: result.unchanged,
          replaced: result.replaced,
          results: result.reports,
        },
      };
    } catch (error) {
      throw asApiError(error);
    }
    const { added, unchanged, replaced } = answer.reports;
    Object.assign(context.logFields, { added, unchanged, replaced });
    if (added > 0 || replaced > 0) deliverAddedSoon();
    return new Response(JSON.stringify(ingestAnswerSchema.parse(answer)), {
      status: 200,
      headers: { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store" },
    });
  },
  { cors: false },
);

/** The added and replaced reports' events (report.published, report.updated), sent soon (the instance's loop, or after the response). */
function deliverAddedSoon(): void {
  try {
    deliverSoon();
  } catch {
    // Outside a Next request scope (tests, scripts): the next pass of a server's loop or the cron route sends them.
  }
}

/** A route of the ingest surface that answers only with an error (no CORS, like the endpoint). */
function refusalRoute(make: () => ApiError) {
  return withRequest(
    async () => {
      throw make();
    },
    { cors: false },
  );
}

/** Any method but POST on the endpoint. */
export const ingestMethodNotAllowed = refusalRoute(
  () =>
    new ApiError("method_not_allowed", "The ingest endpoint takes reports with POST.", { headers: { Allow: "POST" } }),
);

/** Anything but GET or HEAD on the ingest surface's OpenAPI document. */
export const ingestDocumentMethodNotAllowed = refusalRoute(
  () =>
    new ApiError("method_not_allowed", "The ingest OpenAPI document is read with GET.", {
      headers: { Allow: "GET, HEAD" },
    }),
);

/** Any /ingest path no route claims: JSON, never the framework's HTML page. */
export const ingestNotFound = refusalRoute(
  () =>
    new ApiError(
      "not_found",
      "No such ingest endpoint. Reports go to POST /ingest/v1/reports, updates to POST /ingest/v1/updates.",
    ),
);
