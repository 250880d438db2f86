import { z } from "zod";
import { uuid } from "./common";

// The answers of POST /ingest/v1/reports (lib/ingest/), in the OpenAPI document of the ingest surface
// (lib/openapi/ingest-document.ts). A body names its batches ("reports"; issue 38 adds "updates" beside it, on the
// same endpoint and token), and the answer has one entry per batch.

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
