import { inputExcerpt } from "@/lib/text/input-excerpt";
import { ImportError, parseImportText, validateImportReports, type ImportReport } from "@/lib/data/import-reports";
import { ApiError } from "@/lib/errors";
import { ingestQuerySchema } from "@/lib/schemas/ingest";

// What a call to POST /ingest/v1/reports asks for, checked before anything is written: its media type (415), its
// query (400), and its body (400), which is the import format (lib/data/import-reports.ts): the same checks, limits
// and messages as `sundown reports import`, plus one report sent alone.

/** The batches a body may carry. Updates and absences go to their own endpoint, POST /ingest/v1/updates. */
const BATCHES = ["reports"] as const;

export interface IngestBatches {
  reports: ImportReport[];
}

/** 415 unless the body is declared JSON (any charset parameter; the body is read as UTF-8). */
export function requireJsonBody(request: Request, what: "reports" | "updates" = "reports"): void {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(
      "unsupported_media_type",
      `Send the ${what} as JSON, with 'Content-Type: application/json' (received ${type ? `'${type}'` : "none"}).`,
    );
  }
}

/** The query's one parameter, `replace`; anything else, or it twice, is refused naming what is allowed. */
export function parseIngestQuery(query: URLSearchParams): { replace: boolean } {
  const names = [...query.keys()];
  const unknown = names.find((name) => name !== "replace");
  if (unknown !== undefined) {
    throw new ApiError(
      "invalid_parameter",
      `Unknown parameter ${JSON.stringify(unknown)}: this endpoint takes replace.`,
    );
  }
  if (names.length > 1) throw new ApiError("invalid_parameter", "replace is given more than once.");
  const parsed = ingestQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) throw new ApiError("invalid_parameter", "replace must be true or false.");
  return { replace: parsed.data.replace === "true" };
}

/** The body's batches: one report, an array of reports, or an object naming its batches ({ "reports": [...] }). */
export function parseIngestBody(text: string): IngestBatches {
  const value = parseImportText(text);
  if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, "reports")) {
    const unknown = Object.keys(value).filter((key) => !(BATCHES as readonly string[]).includes(key));
    if (unknown.length > 0) {
      const names = unknown.map((k) => inputExcerpt(k)).join(", ");
      throw new ImportError([
        {
          path: "",
          message: `unknown field${unknown.length > 1 ? "s" : ""} ${names}: a body carries "reports" (updates and absences go to POST /ingest/v1/updates)`,
        },
      ]);
    }
  }
  return { reports: validateImportReports(value, { single: true }) };
}
