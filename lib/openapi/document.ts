import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { KEY_PATTERN_SOURCE } from "@/lib/auth/api-key";
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "@/lib/auth/scopes";
import { API_VERSION, buildApiRoot, ENDPOINTS } from "@/lib/discovery/api-root";
import { DATABASE_RETRY_AFTER_SECONDS } from "@/lib/errors";
import { RATE_LIMIT_WINDOW_SECONDS } from "@/lib/http/rate-limit";
import { apiRootSchema } from "@/lib/schemas/api-root";
import { errorSchema } from "@/lib/schemas/common";
import { identitySchema } from "@/lib/schemas/identity";
import { listReportsQuery, REPORT_LIMIT, reportIdParams, reportListSchema, reportSchema } from "@/lib/schemas/reports";
import { teamListSchema } from "@/lib/schemas/team";
import { getEnv } from "@/lib/env";
import { EXAMPLE_REPORT_ID, identityExample, reportExample, reportListExample, teamListExample } from "./examples";

// The OpenAPI 3.1 description of API v1, generated from the same zod schemas the handlers parse
// their input and output with, so the document cannot drift from what the server does.

const pathOf = (endpoint: string) => endpoint.replace(/^GET /, "");

/** OpenAPI path templates of the v1 operations, taken from ApiRoot.endpoints (plus the root itself). */
export const OPERATION_PATHS = {
  root: "/api/v1",
  identity: pathOf(ENDPOINTS.identity),
  list_reports: pathOf(ENDPOINTS.list_reports),
  get_report: pathOf(ENDPOINTS.get_report),
  team: pathOf(ENDPOINTS.team),
} as const;

const SECURITY_SCHEMES = { bearer: "bearerAuth", header: "apiKeyHeader" } as const;

// Response headers, registered once as components and referenced by every response that carries them.
const requestIdHeader = z
  .string()
  .meta({ header: { id: "X-Request-Id" }, description: "The request's id: a sane incoming X-Request-Id is echoed, else a new UUID. Error bodies repeat it as request_id.", example: "5b3f0f5e-2a51-4c7e-9d1b-0c4f3e2a1b6d" });
const etagHeader = z
  .string()
  .meta({ header: { id: "ETag" }, description: "Strong validator of the representation; send it back in If-None-Match to get 304.", example: '"Xq3bJc9V1mZp0Tn7sLw2Yk5Rh8Gd4Fa6"' });
const cacheControlHeader = z
  .string()
  .meta({ header: { id: "Cache-Control" }, description: "`private, no-cache` on keyed responses; `public, max-age=300` on discovery documents.", example: "private, no-cache" });
const rateLimitHeader = z
  .string()
  .meta({ header: { id: "RateLimit" }, description: "Remaining requests in the rolling window and seconds until the oldest counted request leaves it (IETF draft RateLimit header fields). Policy `per-key`, or `per-address` on a 429 for requests without a valid key.", example: '"per-key";r=117;t=42' });
const rateLimitPolicyHeader = z
  .string()
  .meta({ header: { id: "RateLimit-Policy" }, description: `The per-key quota: q requests per w seconds (IETF draft RateLimit header fields).`, example: `"per-key";q=120;w=${RATE_LIMIT_WINDOW_SECONDS}` });
const retryAfterHeader = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({ header: { id: "Retry-After" }, description: "Whole seconds to wait before retrying.", example: "17" });
const allowHeader = z.literal("GET, HEAD").meta({ header: { id: "Allow" }, description: "The methods this path serves." });
const bearerChallengeHeader = z
  .string()
  .meta({ header: { id: "WWW-Authenticate" }, description: 'The Bearer challenge (RFC 6750 §3): `Bearer realm="sundown"`, with `error="invalid_token"` when a key was sent. No resource_metadata: there is no OAuth.', example: 'Bearer realm="sundown", error="invalid_token"' });
const linkHeader = z
  .string()
  .meta({ header: { id: "Link" }, description: "Points at the RFC 9727 API catalog.", example: '<https://sundown.example.com/.well-known/api-catalog>; rel="api-catalog"' });

// Requests without a valid key are counted per client address instead, under the "per-address" policy.
const addressRateLimitHeader = z
  .string()
  .meta({ description: "On requests without a valid key: the client address's remaining budget (policy `per-address`).", example: '"per-address";r=57;t=42' });
const addressRateLimitPolicyHeader = z
  .string()
  .meta({ description: "On requests without a valid key: the per-address quota.", example: `"per-address";q=60;w=${RATE_LIMIT_WINDOW_SECONDS}` });

const keyedHeaders = z.object({ "X-Request-Id": requestIdHeader, RateLimit: rateLimitHeader, "RateLimit-Policy": rateLimitPolicyHeader });

function errorExample(error: z.infer<typeof errorSchema>) {
  return { ...error, request_id: "5b3f0f5e-2a51-4c7e-9d1b-0c4f3e2a1b6d" };
}

function errorResponse(
  id: string,
  description: string,
  example: z.infer<typeof errorSchema>,
  headers: z.ZodObject = z.object({ "X-Request-Id": requestIdHeader }),
): ZodOpenApiResponseObject {
  return {
    id,
    description,
    headers,
    content: { "application/json": { schema: errorSchema, example: errorExample(example) } },
  };
}

// Every status the server can answer with, as reusable responses; each operation lists the ones it can give.
const RESPONSES = {
  304: {
    id: "NotModified",
    description: "Not modified: the If-None-Match header matched the current ETag. No body.",
    headers: z.object({
      "X-Request-Id": requestIdHeader,
      ETag: etagHeader,
      "Cache-Control": cacheControlHeader,
      RateLimit: rateLimitHeader.optional(),
      "RateLimit-Policy": rateLimitPolicyHeader.optional(),
    }),
  },
  400: errorResponse(
    "InvalidParameter",
    "A query or path parameter is invalid (`invalid_parameter`); the message names the parameter and what it accepts.",
    { error: "invalid_parameter", message: `limit must be an integer from ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max} (default ${REPORT_LIMIT.default}).` },
    keyedHeaders,
  ),
  401: errorResponse(
    "Unauthorized",
    "The API key is missing, malformed, unknown, revoked or expired (`unauthorized`). Requests without a valid key are also rate-limited per client address.",
    { error: "unauthorized", message: "The API key is not valid." },
    z.object({
      "X-Request-Id": requestIdHeader,
      "WWW-Authenticate": bearerChallengeHeader,
      RateLimit: addressRateLimitHeader.optional(),
      "RateLimit-Policy": addressRateLimitPolicyHeader.optional(),
    }),
  ),
  403: errorResponse(
    "InsufficientScope",
    "The key is valid but lacks the scope this operation needs (`insufficient_scope`); `required_scope` names it.",
    { error: "insufficient_scope", message: "This API key lacks the reports:read scope.", required_scope: "reports:read" },
    keyedHeaders,
  ),
  404: errorResponse(
    "NotFound",
    "No such resource in the key's organization (`not_found`). Reports of other organizations are indistinguishable from missing ones.",
    { error: "not_found", message: "No report with this id in your organization." },
    keyedHeaders,
  ),
  405: errorResponse(
    "MethodNotAllowed",
    "Any method other than GET or HEAD on this path (`method_not_allowed`): the API is read-only.",
    { error: "method_not_allowed", message: "This API is read-only: use GET or HEAD." },
    z.object({ "X-Request-Id": requestIdHeader, Allow: allowHeader }),
  ),
  429: errorResponse(
    "RateLimited",
    "Too many requests (`rate_limited`): the key's budget is spent, or (policy `per-address`) too many requests without a valid key came from this client address. Wait for the seconds in Retry-After.",
    { error: "rate_limited", message: "Rate limit exceeded for this API key. Retry after the time in Retry-After." },
    z.object({
      "X-Request-Id": requestIdHeader,
      RateLimit: rateLimitHeader,
      "RateLimit-Policy": rateLimitPolicyHeader,
      "Retry-After": retryAfterHeader,
    }),
  ),
  500: errorResponse("InternalError", "An unexpected server failure (`internal_error`). The body never contains internals.", {
    error: "internal_error",
    message: "An unexpected error occurred.",
  }),
  503: errorResponse(
    "ServiceUnavailable",
    "The database is unreachable or too busy to answer within the server's time limit (`service_unavailable`); retry after the seconds in Retry-After.",
    { error: "service_unavailable", message: "The database is unreachable or too busy to answer in time. Try again shortly." },
    z.object({ "X-Request-Id": requestIdHeader, "Retry-After": retryAfterHeader.meta({ example: String(DATABASE_RETRY_AFTER_SECONDS) }) }),
  ),
} satisfies Record<number, ZodOpenApiResponseObject>;

type Status = keyof typeof RESPONSES;

const KEYED_ERRORS: Status[] = [401, 429, 405, 500, 503];

function ok(description: string, schema: z.ZodType, example: unknown, headers: z.ZodObject): ZodOpenApiResponseObject {
  return { description, headers, content: { "application/json": { schema, example } } };
}

const keyedOkHeaders = z.object({
  "X-Request-Id": requestIdHeader,
  ETag: etagHeader,
  "Cache-Control": cacheControlHeader,
  RateLimit: rateLimitHeader,
  "RateLimit-Policy": rateLimitPolicyHeader,
});

/** A keyed GET operation: security with the scope it needs, and the error responses it can give. */
function keyedOperation(options: {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  scope?: Scope;
  extraErrors?: Status[];
  ok: ZodOpenApiResponseObject;
  requestParams?: ZodOpenApiOperationObject["requestParams"];
}): ZodOpenApiOperationObject {
  const scopes = options.scope ? [options.scope] : [];
  const needs = options.scope
    ? `Requires an API key with the \`${options.scope}\` scope; a valid key without it gets 403 \`insufficient_scope\`.`
    : "Works with any valid API key, whatever its scopes.";
  const statuses = [...new Set<Status>([304, ...(options.extraErrors ?? []), ...KEYED_ERRORS])].sort((a, b) => a - b);
  return {
    operationId: options.operationId,
    tags: [options.tag],
    summary: options.summary,
    description: `${options.description}\n\n${needs}`,
    security: [{ [SECURITY_SCHEMES.bearer]: scopes }, { [SECURITY_SCHEMES.header]: scopes }],
    ...(options.scope ? { "x-required-scope": options.scope } : {}),
    requestParams: options.requestParams,
    responses: {
      200: options.ok,
      ...Object.fromEntries(statuses.map((status) => [status, RESPONSES[status]])),
    },
  };
}

function createApiDocument(base: string) {
  const rateLimit = getEnv().SUNDOWN_RATE_LIMIT;
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Sundown API",
      version: API_VERSION,
      description: [
        "Sundown gives AI agents and scripts read-only access to one organization's end-of-day reports",
        "(shipped, silent, slipping, blockers, KPI status) and its team roster. Every call is a GET;",
        "nothing is created, changed or deleted. Contact details (email, chat ids) never appear in a response.",
        "",
        `Authenticate with an organization-scoped API key (\`sdn_sk_…\`) in \`Authorization: Bearer <API_KEY>\` or \`X-API-Key: <API_KEY>\`.`,
        "Founders and leads create keys in Settings → API keys; the secret is shown once.",
        "",
        `Each key may make ${rateLimit} requests per rolling minute (at most that many in any 60 seconds); every keyed response carries`,
        "`RateLimit` and `RateLimit-Policy` headers, and a 429 adds `Retry-After`.",
        "",
        `The same keys work with the MCP server at ${base}/api/mcp (Streamable HTTP; tools whoami, list_reports, get_report, list_team).`,
      ].join("\n"),
    },
    externalDocs: { description: "Guide: quick start, authentication, errors and limits, MCP setup", url: `${base}/docs` },
    servers: [{ url: base, description: "This Sundown server" }],
    tags: [
      { name: "Discovery", description: "Public, unauthenticated description of the API." },
      { name: "Identity", description: "Who the calling key belongs to." },
      { name: "Reports", description: "End-of-day reports of the key's organization." },
      { name: "Team", description: "The team roster of the key's organization, without contact details." },
    ],
    security: [{ [SECURITY_SCHEMES.bearer]: [] }, { [SECURITY_SCHEMES.header]: [] }],
    components: {
      securitySchemes: {
        [SECURITY_SCHEMES.bearer]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "sdn_sk_<38 base62 characters>",
          description: `Organization-scoped API key in \`Authorization: Bearer <API_KEY>\`. Keys match \`${KEY_PATTERN_SOURCE}\`. Scopes: ${SCOPES.map((s) => `\`${s}\` (${SCOPE_DESCRIPTIONS[s]})`).join(", ")}.`,
        },
        [SECURITY_SCHEMES.header]: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "The same API key in the `X-API-Key` header, for clients that cannot set Authorization.",
        },
      },
    },
    paths: {
      [OPERATION_PATHS.root]: {
        get: {
          operationId: "getApiRoot",
          tags: ["Discovery"],
          summary: "Describe the API",
          description:
            "Public discovery document: documentation, OpenAPI and API catalog addresses, the MCP endpoint, how to authenticate, the endpoints and the rate limit. Needs no key, exposes no organization data and is not counted against any key.",
          security: [],
          responses: {
            200: ok(
              "The API root.",
              apiRootSchema,
              buildApiRoot(base),
              z.object({ "X-Request-Id": requestIdHeader, ETag: etagHeader, "Cache-Control": cacheControlHeader, Link: linkHeader }),
            ),
            304: RESPONSES[304],
            405: RESPONSES[405],
            500: RESPONSES[500],
          },
        },
      },
      [OPERATION_PATHS.identity]: {
        get: keyedOperation({
          operationId: "getIdentity",
          tag: "Identity",
          summary: "Identify the calling key",
          description: "The organization the calling key belongs to and the key's scopes. Use it to verify a key.",
          ok: ok("The key's organization and scopes.", identitySchema, identityExample, keyedOkHeaders),
        }),
      },
      [OPERATION_PATHS.list_reports]: {
        get: keyedOperation({
          operationId: "listReports",
          tag: "Reports",
          summary: "List recent reports",
          description: `Summaries of the organization's most recent end-of-day reports, newest first (\`generated_at\` descending, ties by \`id\` descending). \`limit\` must be a plain decimal integer from ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max} given at most once; anything else is 400 \`invalid_parameter\`.`,
          scope: "reports:read",
          extraErrors: [400, 403],
          requestParams: { query: listReportsQuery },
          ok: ok("Report summaries, newest first.", reportListSchema, reportListExample, keyedOkHeaders),
        }),
      },
      [OPERATION_PATHS.get_report]: {
        get: keyedOperation({
          operationId: "getReport",
          tag: "Reports",
          summary: "Get one report",
          description:
            "The full structured content of one report of the key's organization: headline, KPI status, shipped, silent, slipping and blockers. An id that is not a UUID is 400 `invalid_parameter`; a report of another organization is 404 like a missing one.",
          scope: "reports:read",
          extraErrors: [400, 403, 404],
          requestParams: { path: reportIdParams.extend({ id: reportIdParams.shape.id.meta({ example: EXAMPLE_REPORT_ID }) }) },
          ok: ok("The report.", reportSchema, reportExample, keyedOkHeaders),
        }),
      },
      [OPERATION_PATHS.team]: {
        get: keyedOperation({
          operationId: "listTeam",
          tag: "Team",
          summary: "List the team",
          description: "The roster of the key's organization. Email addresses and chat identifiers are never included.",
          scope: "team:read",
          extraErrors: [403],
          ok: ok("The team roster.", teamListSchema, teamListExample, keyedOkHeaders),
        }),
      },
    },
  }, { override: simplifySchema });
}

type JsonSchemaNode = Record<string, unknown>;

/**
 * Renders zod's `anyOf: [{type: T, …}, {type: "null"}]` as `type: [T, "null"]` and `additionalProperties: {}` as
 * `true`. Both forms mean the same in JSON Schema 2020-12; these are the ones renderers and code generators read
 * best (Scalar's document store rejects the first form inside component schemas).
 */
function simplifySchema({ jsonSchema }: { jsonSchema: JsonSchemaNode }): void {
  const extra = jsonSchema.additionalProperties;
  if (extra && typeof extra === "object" && Object.keys(extra).length === 0) jsonSchema.additionalProperties = true;
  const anyOf = jsonSchema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return;
  const isNull = (node: JsonSchemaNode) => node.type === "null" && Object.keys(node).length === 1;
  const other = anyOf.find((node: JsonSchemaNode) => !isNull(node)) as JsonSchemaNode | undefined;
  if (!other || !anyOf.some(isNull) || typeof other.type !== "string" || "enum" in other || "const" in other || "$ref" in other) return;
  delete jsonSchema.anyOf;
  Object.assign(jsonSchema, { ...other, ...jsonSchema, type: [other.type, "null"] });
}

export type OpenApiDocument = ReturnType<typeof createApiDocument>;

const documents = new Map<string, OpenApiDocument>();

/** The OpenAPI document for one base URL, built once and kept (a server sees one or a handful of bases). */
export function buildOpenApiDocument(base: string): OpenApiDocument {
  let document = documents.get(base);
  if (!document) {
    document = createApiDocument(base);
    if (documents.size >= 16) documents.clear();
    documents.set(base, document);
  }
  return document;
}

