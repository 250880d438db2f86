import { z } from "zod";
import { uuid } from "./common";

// The answers of POST /ingest/v1/reports and POST /ingest/v1/updates (lib/ingest/), in the OpenAPI document of the
// ingest surface (lib/openapi/ingest-document.ts). A body names its batches ("reports"; "updates" and "absences"),
// and the answer has one entry per batch.

const IMPORT_OUTCOMES = ["added", "unchanged", "replaced"] as const;

const ingestReportResultSchema = z
  .object({
    id: uuid.meta({
      description: "The report's id: the one sent, the stored report's, or a new one for an added report.",
    }),
    outcome: z.enum(IMPORT_OUTCOMES).meta({
      description:
        "added: stored now. unchanged: the same report was stored already (same id, or same scope, scope_target_id and generated_at, and the same content). replaced: stored with other content, updated because replace=true.",
    }),
  })
  .meta({ id: "IngestReportResult" });

const ingestReportsBatchSchema = z
  .object({
    added: z.int().min(0),
    unchanged: z.int().min(0),
    replaced: z.int().min(0),
    results: z.array(ingestReportResultSchema).meta({ description: "One entry per report sent, in the order sent." }),
  })
  .meta({ id: "IngestReportsBatch" });

export const ingestAnswerSchema = z
  .object({ reports: ingestReportsBatchSchema })
  .meta({ id: "IngestAnswer", description: "What became of each batch the body carried." });

export type IngestAnswer = z.infer<typeof ingestAnswerSchema>;

/** The query of POST /ingest/v1/reports: `replace`, and nothing else. */
export const ingestQuerySchema = z.strictObject({
  replace: z.enum(["true", "false"], { error: "replace must be true or false." }).optional().meta({
    description:
      "true: reports stored with other content are updated (replaced) instead of refusing the call with 409. Default false.",
  }),
});

const count = z.int().min(0);

/** The answer of POST /ingest/v1/updates: what became of the updates and the absences sent. */
export const ingestUpdatesAnswerSchema = z
  .object({
    updates: z.object({ added: count, unchanged: count, replaced: count }).meta({
      id: "IngestUpdatesBatch",
      description:
        "One outcome per person and day: added (stored now), unchanged (the same update was stored already), replaced (the day's stored update had other content; the one sent replaced it).",
    }),
    absences: z.object({ added: count, unchanged: count }).meta({
      id: "IngestAbsencesBatch",
      description: "added: stored now; unchanged: the same person, from and to were stored already.",
    }),
    dry_run: z.boolean().meta({ description: "true: checked and counted, nothing written (dry_run=true)." }),
  })
  .meta({ id: "IngestUpdatesAnswer", description: "What became of the updates and absences the body carried." });

/** The query of POST /ingest/v1/updates: `dry_run`, and nothing else. */
export const ingestUpdatesQuerySchema = z.strictObject({
  dry_run: z.enum(["true", "false"], { error: "dry_run must be true or false." }).optional().meta({
    description: "true: check the body and count what it would change, writing nothing. Default false.",
  }),
});
