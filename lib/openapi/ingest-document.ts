import { z } from "zod";
import { createDocument, type ZodOpenApiResponseObject } from "zod-openapi";
import { INGEST_TOKEN_PATTERN_SOURCE } from "@/lib/auth/ingest-token";
import { IMPORT_LIMITS, importReportSchema } from "@/lib/data/import-reports";
import { UPDATE_IMPORT_LIMITS } from "@/lib/data/update-file";
import { UPDATE_LIMITS } from "@/lib/data/updates";
import { getEnv } from "@/lib/env";
import { ApiError, errorBody, toApiError } from "@/lib/errors";
import { RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import { rateLimitHeaders } from "@/lib/http/rate-limit";
import { readIngestToken } from "@/lib/ingest/admit";
import { requireJsonBody } from "@/lib/ingest/request";
import { RATE_LIMIT_WINDOW_SECONDS } from "@/lib/ratelimit/policies";
import { errorSchema } from "@/lib/schemas/common";
import {
  ingestAnswerSchema,
  ingestQuerySchema,
  ingestUpdatesAnswerSchema,
  ingestUpdatesQuerySchema,
} from "@/lib/schemas/ingest";

// The OpenAPI 3.1 description of the ingest surface (POST /ingest/v1/reports and /ingest/v1/updates), apart from the agents' document
// (/openapi.json), which describes a read-only, GET-only API. Generated from the schemas the endpoint parses its
// body and answers with; the refusals' examples are what the endpoint's own checks throw.

const INGEST_REPORTS_PATH = "/ingest/v1/reports";
const INGEST_UPDATES_PATH = "/ingest/v1/updates";
const INGEST_API_VERSION = "1.0.0";
const SECURITY = "ingestToken";
const EXAMPLE_REQUEST_ID = "5b3f0f5e-2a51-4c7e-9d1b-0c4f3e2a1b6d";
const EXAMPLE_ORG_TARGET = "5d0e0002-0004-4002-8004-00000000ac3e";

const reportInput = importReportSchema.meta({
  id: "IngestReport",
  description:
    "One report, as `sundown reports import` reads it. `scope_target_id` is required for `lead` and `member` (a member of the token's organization) and null or absent for `org`. `generated_at` needs a time zone.",
});

const bodySchema = z
  .union([
    reportInput,
    z.array(reportInput).min(1).max(IMPORT_LIMITS.maxReports),
    z.strictObject({ reports: z.array(reportInput).min(1).max(IMPORT_LIMITS.maxReports) }),
  ])
  .meta({ id: "IngestBody", description: 'One report, an array of reports, or `{ "reports": [...] }`.' });

const exampleReport = (headline: string, at: string) => ({
  scope: "member" as const,
  scope_target_id: EXAMPLE_ORG_TARGET,
  generated_at: at,
  report: {
    headline,
    kpi_status: [],
    shipped: [{ title: "Released gripper firmware 2.3" }],
    silent: [],
    slipping: [],
    blockers: [{ description: "Waiting on vendor parts", owner: "Dev Patel", since_days: 2 }],
  },
});

const bodyExample = {
  reports: [
    exampleReport("Aisha Khan: 1 shipped, 1 blocker", "2026-11-21T17:30:00-08:00"),
    {
      ...exampleReport("Aisha Khan: 1 shipped, 1 blocker", "2026-11-20T17:30:00-08:00"),
      id: "3f2c6b1e-8a4d-4e7f-9c21-5b6d8e0f1a2c",
    },
  ],
};

const answerExample = {
  reports: {
    added: 1,
    unchanged: 1,
    replaced: 0,
    results: [
      { id: "9a7e5c3b-1d2f-4a6b-8c0d-2e4f6a8b0c1d", outcome: "added" as const },
      { id: "3f2c6b1e-8a4d-4e7f-9c21-5b6d8e0f1a2c", outcome: "unchanged" as const },
    ],
  },
};

// The updates body as JSON Schema describes it. The endpoint reads it with lib/data/update-file.ts, whose checks
// (an item given as its text alone, problems named by entry and field) a schema cannot say; the integration tests
// send this document's example to the endpoint.
const dayText = z.iso.date().meta({ description: "A day as YYYY-MM-DD." });
const itemText = z.string().min(1).max(UPDATE_LIMITS.textMax);
const items = <T extends z.ZodType>(item: T) => z.array(item).max(UPDATE_LIMITS.itemsMax).optional();
const person = {
  email: z.string().optional().meta({ description: "The person's e-mail address on the roster (any case)." }),
  member_id: z.uuid().optional().meta({ description: "The person's member id, instead of email." }),
};
const updateInput = z
  .strictObject({
    date: dayText.meta({ description: "The day, in the organization's time zone; not after today." }),
    ...person,
    shipped: items(z.union([itemText, z.strictObject({ title: itemText })])),
    slipping: items(
      z.union([itemText, z.strictObject({ item: itemText, reason: itemText.optional(), due: dayText.optional() })]),
    ),
    blockers: items(z.union([itemText, z.strictObject({ description: itemText })])),
    kpis: items(z.strictObject({ name: itemText, value: z.number(), unit: itemText.optional() })).meta({
      description: "KPI values: founders and leads only.",
    }),
    note: z.string().max(UPDATE_LIMITS.noteMax).optional(),
  })
  .meta({
    id: "IngestUpdate",
    description:
      "One person's whole update for one day (it replaces the day's stored one). The person by `email` or `member_id`. Items may be given as their text alone.",
  });
const absenceInput = z
  .strictObject({ ...person, from: dayText, to: dayText })
  .meta({ id: "IngestAbsence", description: "A person away from `from` to `to`, both included." });
const updatesBodySchema = z
  .strictObject({ updates: z.array(updateInput).optional(), absences: z.array(absenceInput).optional() })
  .meta({
    id: "IngestUpdatesBody",
    description: `Updates and absences, at most ${UPDATE_IMPORT_LIMITS.maxRows} in all.`,
  });

export const updatesBodyExample = {
  updates: [
    {
      date: "2026-11-20",
      email: "aisha@acme.example",
      shipped: ["Released gripper firmware 2.3"],
      slipping: [{ item: "Warehouse pilot", reason: "waiting on the site survey", due: "2026-11-18" }],
      blockers: ["Vendor parts held at customs"],
      note: "Back on the pilot tomorrow.",
    },
    { date: "2026-11-20", email: "dev@acme.example", kpis: [{ name: "Units shipped", value: 42 }] },
  ],
  absences: [{ email: "lena@acme.example", from: "2026-11-23", to: "2026-11-27" }],
};

const updatesAnswerExample = {
  updates: { added: 1, unchanged: 0, replaced: 1 },
  absences: { added: 1, unchanged: 0 },
  dry_run: false,
};

const updatesInvalidExample = new ApiError(
  "invalid_parameter",
  [
    "The request is invalid (2 problems); nothing was imported.",
    "  updates[0], email: no one of the roster has this address (see `sundown members list`)",
    "  updates[1], kpis: only founders and leads report KPI values; Mia Member is a member",
  ].join("\n"),
);

const requestIdHeader = z.string().meta({ description: "The request's id; error bodies repeat it as request_id." });

/** The refusal `attempt` throws, as the endpoint would answer it. */
function thrownBy(attempt: () => unknown): ApiError {
  try {
    attempt();
  } catch (error) {
    return toApiError(error);
  }
  throw new Error("the example's refusal was not refused");
}

function refusal(description: string, example: ApiError, headers: z.ZodObject): ZodOpenApiResponseObject {
  return {
    description,
    headers,
    content: { "application/json": { schema: errorSchema, example: errorBody(example, EXAMPLE_REQUEST_ID) } },
  };
}

const conflictExample = new ApiError(
  "conflict",
  [
    "The request conflicts with stored reports (1 problem); nothing was imported.",
    "  reports[0]: differs from stored report 9a7e5c3b-1d2f-4a6b-8c0d-2e4f6a8b0c1d, which has the same scope, scope_target_id and generated_at",
    "To update the stored reports that differ, send it again with ?replace=true.",
  ].join("\n"),
);
const invalidExample = new ApiError(
  "invalid_parameter",
  [
    "The request is invalid (1 problem); nothing was imported.",
    "  reports[1].generated_at: expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T18:30:00Z",
  ].join("\n"),
);

function createIngestDocument(base: string) {
  const limit = getEnv().SUNDOWN_INGEST_RATE_LIMIT;
  const budget = rateLimitHeaders(
    { success: true, limit, remaining: limit - 1, reset: Date.now() + 42_000 },
    "per-ingest-token",
  );
  const rateLimitHeader = z.string().meta({
    description: "What is left of the token's budget (IETF draft RateLimit header fields).",
    example: budget[RATE_LIMIT_HEADER],
  });
  const rateLimitPolicyHeader = z.string().meta({
    description: "The token's quota: q calls per w seconds.",
    example: budget[RATE_LIMIT_POLICY_HEADER],
  });
  const admitted = z.object({
    [REQUEST_ID_HEADER]: requestIdHeader,
    [RATE_LIMIT_HEADER]: rateLimitHeader,
    [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicyHeader,
  });
  const plain = z.object({ [REQUEST_ID_HEADER]: requestIdHeader });
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Sundown ingest API",
      version: INGEST_API_VERSION,
      description: [
        "The tools that produce end-of-day reports (a standup bot, a scheduled job, an LLM pipeline, a workflow)",
        "send them to Sundown here, with an ingest token of the organization they belong to. This is the one",
        "surface that writes; the agents' API (`/openapi.json`, `/api/v1`, MCP) stays read-only and GET-only.",
        "",
        "Ingest tokens (`sdn_it_…`) are created by founders and leads, or by an operator with",
        "`sundown ingest-tokens create --org <slug> --name <name>`; the token is shown once. API keys are refused",
        "here, and ingest tokens by the read API.",
        "",
        "Sending is idempotent: a report is identified by its `id` when it has one, else by its `scope`,",
        "`scope_target_id` and `generated_at`. The same report again changes nothing (`unchanged`); one that",
        "differs from the stored one is refused with 409 unless `replace=true`. A call is all or nothing.",
        "",
        "People's own updates and absences go to `/ingest/v1/updates` with the same token; Sundown writes the",
        "day's member, lead and organization reports from them at the organization's cutoff.",
      ].join("\n"),
    },
    servers: [{ url: base, description: "This Sundown server" }],
    tags: [{ name: "Ingest", description: "Sending reports, updates and absences in." }],
    security: [{ [SECURITY]: [] }],
    components: {
      securitySchemes: {
        [SECURITY]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "sdn_it_<38 base62 characters>",
          description: `An organization's ingest token in \`Authorization: Bearer <token>\`. Tokens match \`${INGEST_TOKEN_PATTERN_SOURCE}\`.`,
        },
      },
    },
    paths: {
      [INGEST_REPORTS_PATH]: {
        post: {
          operationId: "ingestReports",
          tags: ["Ingest"],
          summary: "Send reports in",
          description: [
            "One report or a batch of up to",
            `${IMPORT_LIMITS.maxReports} reports and ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB, in the import format.`,
            "Every report is checked before anything is written; a refusal lists each problem with its place",
            "(`reports[3].generated_at`). The added reports are announced to the organization's webhook endpoints",
            "(`report.published`); unchanged ones are not announced again.",
            "",
            `Rate limit: ${limit} calls per rolling ${RATE_LIMIT_WINDOW_SECONDS} seconds per token, apart from the read API's budgets.`,
          ].join(" "),
          "x-ratelimit": { policy: "per-ingest-token", limit, window_seconds: RATE_LIMIT_WINDOW_SECONDS },
          requestParams: { query: ingestQuerySchema },
          requestBody: {
            required: true,
            content: { "application/json": { schema: bodySchema, example: bodyExample } },
          },
          responses: {
            200: {
              description: "Stored, all of it: what became of each report, in the order sent.",
              headers: admitted,
              content: { "application/json": { schema: ingestAnswerSchema, example: answerExample } },
            },
            400: refusal(
              "The body is not valid JSON or not in the import format, a report names no member of the organization, or the query is invalid (`invalid_parameter`). Nothing was written.",
              invalidExample,
              admitted,
            ),
            401: refusal(
              "The token is missing, malformed, unknown or revoked, or an API key was sent (`unauthorized`).",
              thrownBy(() => readIngestToken(new Headers())),
              z.object({ [REQUEST_ID_HEADER]: requestIdHeader, "WWW-Authenticate": z.string() }),
            ),
            409: refusal(
              "Stored reports stand in the way (`conflict`): some differ from what was sent (send it again with `replace=true` to update them), or an id or a scope, target and time is taken otherwise. Nothing was written.",
              conflictExample,
              admitted,
            ),
            413: refusal(
              `The body is larger than ${IMPORT_LIMITS.maxBytes} bytes (\`payload_too_large\`); split it into several calls.`,
              new ApiError("payload_too_large", `The request body exceeds ${IMPORT_LIMITS.maxBytes} bytes.`),
              admitted,
            ),
            415: refusal(
              "The Content-Type is not application/json (`unsupported_media_type`).",
              thrownBy(() => requireJsonBody(new Request(base, { method: "POST" }))),
              admitted,
            ),
            429: refusal(
              "The token's budget is spent (`rate_limited`); wait for the seconds in Retry-After.",
              new ApiError("rate_limited", "Rate limit exceeded for this ingest token."),
              admitted.extend({ [RETRY_AFTER_HEADER]: z.string() }),
            ),
            500: refusal("An unexpected server failure (`internal_error`).", toApiError(new Error("example")), plain),
            503: refusal(
              "The database is unreachable or too busy (`service_unavailable`); retry after Retry-After seconds. Nothing was written.",
              toApiError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
              plain.extend({ [RETRY_AFTER_HEADER]: z.string() }),
            ),
          },
        },
      },
      [INGEST_UPDATES_PATH]: {
        post: {
          operationId: "ingestUpdates",
          tags: ["Ingest"],
          summary: "Send people's updates and absences in",
          description: [
            "What people wrote for their days (what they shipped, what is slipping, what blocks them, KPI values",
            "from founders and leads, a note), and when they are away, in the format `sundown updates import` reads",
            `as JSON; at most ${UPDATE_IMPORT_LIMITS.maxRows} entries and ${UPDATE_IMPORT_LIMITS.maxBytes / 1024 / 1024} MB.`,
            "People are named by e-mail or member id. An update is a person's whole day: sending the day again",
            "replaces it (`replaced`); the same update again changes nothing (`unchanged`). Days after today in the",
            "organization's time zone are refused; days long past are taken. Every entry is checked before anything",
            "is written; a refusal lists each problem with its entry and field. Sundown writes the day's reports from",
            "the updates at the organization's cutoff.",
            "",
            `Rate limit: the token's ${limit} calls per rolling ${RATE_LIMIT_WINDOW_SECONDS} seconds, shared with reports.`,
          ].join(" "),
          "x-ratelimit": { policy: "per-ingest-token", limit, window_seconds: RATE_LIMIT_WINDOW_SECONDS },
          requestParams: { query: ingestUpdatesQuerySchema },
          requestBody: {
            required: true,
            content: { "application/json": { schema: updatesBodySchema, example: updatesBodyExample } },
          },
          responses: {
            200: {
              description: "Checked and stored, all of it (or, with dry_run=true, checked and counted only).",
              headers: admitted,
              content: { "application/json": { schema: ingestUpdatesAnswerSchema, example: updatesAnswerExample } },
            },
            400: refusal(
              "The body is not valid JSON or not in the format, names someone not on the roster, a day to come, or KPI values from a member, or the query is invalid (`invalid_parameter`). Nothing was written.",
              updatesInvalidExample,
              admitted,
            ),
            401: refusal(
              "The token is missing, malformed, unknown or revoked, or an API key was sent (`unauthorized`).",
              thrownBy(() => readIngestToken(new Headers())),
              z.object({ [REQUEST_ID_HEADER]: requestIdHeader, "WWW-Authenticate": z.string() }),
            ),
            413: refusal(
              `The body is larger than ${UPDATE_IMPORT_LIMITS.maxBytes} bytes (\`payload_too_large\`); split it into several calls.`,
              new ApiError("payload_too_large", `The request body exceeds ${UPDATE_IMPORT_LIMITS.maxBytes} bytes.`),
              admitted,
            ),
            415: refusal(
              "The Content-Type is not application/json (`unsupported_media_type`).",
              thrownBy(() => requireJsonBody(new Request(base, { method: "POST" }), "updates")),
              admitted,
            ),
            429: refusal(
              "The token's budget is spent (`rate_limited`); wait for the seconds in Retry-After.",
              new ApiError("rate_limited", "Rate limit exceeded for this ingest token."),
              admitted.extend({ [RETRY_AFTER_HEADER]: z.string() }),
            ),
            500: refusal("An unexpected server failure (`internal_error`).", toApiError(new Error("example")), plain),
            503: refusal(
              "The database is unreachable or too busy (`service_unavailable`); retry after Retry-After seconds. Nothing was written.",
              toApiError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
              plain.extend({ [RETRY_AFTER_HEADER]: z.string() }),
            ),
          },
        },
      },
    },
  });
}

const documents = new Map<string, ReturnType<typeof createIngestDocument>>();

/** The ingest surface's OpenAPI document for one base URL, built once and kept. */
export function buildIngestOpenApiDocument(base: string): ReturnType<typeof createIngestDocument> {
  let document = documents.get(base);
  if (!document) {
    document = createIngestDocument(base);
    if (documents.size >= 16) documents.clear();
    documents.set(base, document);
  }
  return document;
}
