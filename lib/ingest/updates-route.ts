import { formatUpdateImportProblems, UPDATE_IMPORT_LIMITS, UpdateImportError } from "@/lib/data/update-file";
import { importUpdates, readUpdateFile } from "@/lib/data/update-import";
import { ApiError } from "@/lib/errors";
import { readBodyText } from "@/lib/http/read-json-body";
import { JSON_CONTENT_TYPE } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { ingestUpdatesAnswerSchema, ingestUpdatesQuerySchema } from "@/lib/schemas/ingest";
import { admitIngestToken } from "./admit";
import { requireJsonBody } from "./request";

// POST /ingest/v1/updates: what people wrote for their days (and when they are away), sent in by a standup bot or
// another tool with the organization's ingest token. One code path with `sundown updates import`
// (lib/data/update-import.ts): the same JSON format, checks, limits and idempotency.
//
// The order of checks, as POST /ingest/v1/reports has it: token (401) → its rate limit (429) → media type (415) →
// query (400) → size (413, counted while streaming) → body and the people it names (400) → written, all or nothing
// (200). Nothing here answers 409: a person's day sent again replaces it.

/** The query's one parameter, `dry_run`; anything else, or it twice, is refused naming what is allowed. */
function parseIngestUpdatesQuery(query: URLSearchParams): { dryRun: boolean } {
  const names = [...query.keys()];
  const unknown = names.find((name) => name !== "dry_run");
  if (unknown !== undefined) {
    throw new ApiError(
      "invalid_parameter",
      `Unknown parameter ${JSON.stringify(unknown)}: this endpoint takes dry_run.`,
    );
  }
  if (names.length > 1) throw new ApiError("invalid_parameter", "dry_run is given more than once.");
  const parsed = ingestUpdatesQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) throw new ApiError("invalid_parameter", "dry_run must be true or false.");
  return { dryRun: parsed.data.dry_run === "true" };
}

export const postIngestUpdates = withRequest(
  async (request, context) => {
    const token = await admitIngestToken(request, context);
    requireJsonBody(request, "updates");
    const { dryRun } = parseIngestUpdatesQuery(context.url.searchParams);
    const text = await readBodyText(request, UPDATE_IMPORT_LIMITS.maxBytes);
    let result;
    try {
      result = await importUpdates(token.organization.id, readUpdateFile(text, "json"), {
        actor: { label: `ingest token ${token.name}` },
        source: "ingest",
        dryRun,
      });
    } catch (error) {
      if (!(error instanceof UpdateImportError)) throw error;
      throw new ApiError("invalid_parameter", formatUpdateImportProblems(error.problems, "The request"));
    }
    const { updates, absences } = result;
    Object.assign(context.logFields, {
      updates_added: updates.added,
      updates_replaced: updates.replaced,
      absences_added: absences.added,
      dry_run: dryRun,
    });
    const answer = ingestUpdatesAnswerSchema.parse({ updates, absences, dry_run: result.dryRun });
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store" },
    });
  },
  { cors: false },
);

/** Any method but POST on the endpoint. */
export const ingestUpdatesMethodNotAllowed = withRequest(
  async () => {
    throw new ApiError("method_not_allowed", "The updates endpoint takes updates with POST.", {
      headers: { Allow: "POST" },
    });
  },
  { cors: false },
);
