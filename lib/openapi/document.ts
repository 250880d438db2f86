import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { KEY_PATTERN_SOURCE } from "@/lib/auth/api-key";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/auth/scopes";
import { API_VERSION } from "@/lib/api-version";
import { buildApiRoot } from "@/lib/discovery/api-root";
import { DISCOVERY_RELATIONS, discoveryLinkHeader } from "@/lib/discovery/links";
import { readApiKey } from "@/lib/http/read-api-key";
import { requireScope } from "@/lib/admission/verify-api-key";
import {
  ApiError,
  DATABASE_RETRY_AFTER_SECONDS,
  ERROR_MESSAGES,
  ERROR_STATUS,
  errorBody,
  toApiError,
  type ErrorCode,
} from "@/lib/errors";
import { methodNotAllowedError } from "@/lib/http/method-not-allowed";
import { rateLimitHeaders, type RateLimitPolicyName } from "@/lib/http/rate-limit";
import { parseRestInput } from "@/lib/operations/input";
import { RATE_LIMIT_WINDOW_SECONDS } from "@/lib/ratelimit/policies";
import {
  OPERATIONS,
  KEYED_OPERATIONS,
  publishedSchema,
  statusesOf,
  type KeyedOperation,
  type Operation,
} from "@/lib/operations/table";
import { errorSchema } from "@/lib/schemas/common";
import { WEBHOOK_PAYLOADS, type WebhookPayload } from "@/lib/schemas/webhooks";
import { getEnv } from "@/lib/env";
import {
  API_KEY_HEADER,
  AUTHORIZATION_HEADER,
  RATE_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from "@/lib/header-names";
import {
  PING_MESSAGE,
  WEBHOOK_EVENTS,
  WEBHOOK_USER_AGENT,
  type WebhookEventType,
  type WebhookMessageType,
} from "@/lib/schemas/webhook-events";
import { ATTEMPT_TIMEOUT_MS } from "@/lib/webhooks/schedule";
import { RESPONSE_KEPT_BYTES } from "@/lib/webhooks/send";

// The OpenAPI 3.1 description of API v1, generated from the operations table (lib/operations/table.ts) and
// the same zod schemas the handlers parse their input and output with, so it cannot drift from the server.

const SECURITY_SCHEMES = { bearer: "bearerAuth", header: "apiKeyHeader" } as const;

/** The host the examples are written for. */
const EXAMPLE_BASE = "https://sundown.example.com";

// Response headers, registered once as components and referenced by every response that carries them.
const requestIdHeader = z.string().meta({
  header: { id: REQUEST_ID_HEADER },
  description:
    "The request's id: a sane incoming X-Request-Id is echoed, else a new UUID. Error bodies repeat it as request_id.",
  example: "5b3f0f5e-2a51-4c7e-9d1b-0c4f3e2a1b6d",
});
const etagHeader = z.string().meta({
  header: { id: "ETag" },
  description: "Strong validator of the representation; send it back in If-None-Match to get 304.",
  example: '"Xq3bJc9V1mZp0Tn7sLw2Yk5Rh8Gd4Fa6"',
});
const cacheControlHeader = z.string().meta({
  header: { id: "Cache-Control" },
  description: "`private, no-cache` on keyed responses; `public, max-age=300` on discovery documents.",
  example: "private, no-cache",
});
const retryAfterHeader = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({ header: { id: RETRY_AFTER_HEADER }, description: "Whole seconds to wait before retrying.", example: "17" });
const allowHeader = z
  .literal("GET, HEAD")
  .meta({ header: { id: "Allow" }, description: "The methods this path serves." });
const bearerChallengeHeader = z.string().meta({
  header: { id: "WWW-Authenticate" },
  description:
    'The Bearer challenge (RFC 6750 §3): `Bearer realm="sundown"`, with `error="invalid_token"` when a key was sent. No resource_metadata: there is no OAuth.',
  example: 'Bearer realm="sundown", error="invalid_token"',
});
const linkHeader = z.string().meta({
  header: { id: "Link" },
  description: `RFC 8288 links to the discovery documents: ${DISCOVERY_RELATIONS.map(({ rel, describes }) => `\`rel="${rel}"\`, ${describes}`).join("; ")}.`,
  example: discoveryLinkHeader(EXAMPLE_BASE),
});
const varyAcceptHeader = z.string().meta({
  header: { id: "Vary" },
  description:
    "The answer depends on the key and on `Accept`: JSON by default, markdown when `Accept` names `text/markdown` and ranks nothing above it.",
  example: `${AUTHORIZATION_HEADER}, ${API_KEY_HEADER}, Accept`,
});

const nextPageHeader = z.string().optional().meta({
  description: "RFC 8288: the next page, the same request with `cursor` set to `next_cursor`; absent on the last page.",
  example: '<https://sundown.example.com/api/v1/reports?limit=14&cursor=WzEs…>; rel="next"',
});

/** The two budgets: per key (REST and MCP together), and per client address for requests without a valid key. */
interface RateLimits {
  key: number;
  address: number;
}

/** The headers as the server writes them (lib/http/rate-limit.ts), for a budget with `remaining` requests left. */
function rateLimitExample(policy: RateLimitPolicyName, limit: number, remaining: number) {
  return rateLimitHeaders({ success: remaining > 0, limit, remaining, reset: Date.now() + 42_000 }, policy);
}

/** An operation's rate-limit policy for machines (`x-ratelimit`); the headers say the same on every response. */
function rateLimitPolicyOf(limits: RateLimits) {
  return {
    policy: "per-key",
    limit: limits.key,
    window_seconds: RATE_LIMIT_WINDOW_SECONDS,
    window: "rolling",
    shared_with: "every keyed operation and the MCP endpoint, counted on the key",
    headers: [RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER],
    on_limit: {
      status: ERROR_STATUS.rate_limited,
      error: "rate_limited" satisfies ErrorCode,
      retry_after_header: RETRY_AFTER_HEADER,
    },
    unauthenticated: { policy: "per-address", limit: limits.address, window_seconds: RATE_LIMIT_WINDOW_SECONDS },
  };
}

// The error answers' examples: what the code that refuses says (or, where that code needs a database or a request
// in flight, the message it throws, from lib/errors.ts), serialized by errorBody as the server serializes it.

const EXAMPLE_REQUEST_ID = "5b3f0f5e-2a51-4c7e-9d1b-0c4f3e2a1b6d";

/** The refusal `attempt` throws, as the server would answer it. */
function thrownBy(attempt: () => unknown): ApiError {
  try {
    attempt();
  } catch (error) {
    return toApiError(error);
  }
  throw new Error("the example's refusal was not refused");
}

/**
 * 400: the operation's first parameter given a value it refuses; an operation without parameters is sent `limit`,
 * which the list takes and it does not.
 */
function invalidParameterOf(operation: Operation): ApiError {
  const [name, parameter] = Object.entries(operation.parameters)[0] ?? ["limit", undefined];
  const query = new URLSearchParams(parameter?.in === "path" ? {} : { [name]: "x" });
  return thrownBy(() => parseRestInput(operation, query, parameter?.in === "path" ? { [name]: "x" } : {}));
}

/** Each refusal's example for `operation`; only the scoped ones answer 403, and only get_report 404. */
function errorExamplesOf(operation: Operation): Record<ErrorStatus, ApiError | undefined> {
  return {
    400: invalidParameterOf(operation),
    401: thrownBy(() => readApiKey(new Headers())),
    403: operation.scope ? thrownBy(() => requireScope({ scopes: [] }, operation.scope)) : undefined,
    404: new ApiError("not_found", ERROR_MESSAGES.reportNotFound),
    405: methodNotAllowedError(operation.path),
    429: new ApiError("rate_limited", ERROR_MESSAGES.keyRateLimited),
    500: toApiError(new Error("example")),
    503: toApiError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
  };
}

type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 429 | 500 | 503;

interface ErrorResponseSpec {
  description: string;
  headers: z.ZodObject;
}

/**
 * Every status the server can answer with beyond 200, for one set of limits (the examples of the rate-limit
 * headers show them); each operation lists the ones it can give, with its own examples.
 */
function responseSpecs(limits: RateLimits) {
  const keyExample = rateLimitExample("per-key", limits.key, limits.key - 3);
  const rateLimitHeader = z.string().meta({
    header: { id: RATE_LIMIT_HEADER },
    description:
      "Remaining requests in the rolling window and seconds until the oldest counted request leaves it (IETF draft RateLimit header fields). Policy `per-key`, or `per-address` on a 429 for requests without a valid key.",
    example: keyExample[RATE_LIMIT_HEADER],
  });
  const rateLimitPolicyHeader = z.string().meta({
    header: { id: RATE_LIMIT_POLICY_HEADER },
    description: `The per-key quota: q requests per w seconds (IETF draft RateLimit header fields).`,
    example: keyExample[RATE_LIMIT_POLICY_HEADER],
  });
  // Requests without a valid key are counted per client address instead, under the "per-address" policy.
  const addressExample = rateLimitExample("per-address", limits.address, limits.address - 3);
  const addressRateLimitHeader = z.string().meta({
    description: "On requests without a valid key: the client address's remaining budget (policy `per-address`).",
    example: addressExample[RATE_LIMIT_HEADER],
  });
  const addressRateLimitPolicyHeader = z.string().meta({
    description: "On requests without a valid key: the per-address quota.",
    example: addressExample[RATE_LIMIT_POLICY_HEADER],
  });
  const keyedHeaders = z.object({
    [REQUEST_ID_HEADER]: requestIdHeader,
    [RATE_LIMIT_HEADER]: rateLimitHeader,
    [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicyHeader,
  });
  const errors: Record<ErrorStatus, ErrorResponseSpec> = {
    400: {
      description:
        "A query or path parameter is invalid (`invalid_parameter`); the message names the parameter and what it accepts. A query parameter the operation does not define is refused the same way, its message naming it and listing the ones the operation takes.",
      headers: keyedHeaders,
    },
    401: {
      description:
        "The API key is missing, malformed, unknown, revoked or expired (`unauthorized`). Requests without a valid key are also rate-limited per client address.",
      headers: z.object({
        [REQUEST_ID_HEADER]: requestIdHeader,
        "WWW-Authenticate": bearerChallengeHeader,
        [RATE_LIMIT_HEADER]: addressRateLimitHeader.optional(),
        [RATE_LIMIT_POLICY_HEADER]: addressRateLimitPolicyHeader.optional(),
      }),
    },
    403: {
      description:
        "The key is valid but lacks the scope this operation needs (`insufficient_scope`); `required_scope` names it.",
      headers: keyedHeaders,
    },
    404: {
      description:
        "No such resource in the key's organization (`not_found`). Reports of other organizations are indistinguishable from missing ones.",
      headers: keyedHeaders,
    },
    405: {
      description: "Any method other than GET or HEAD on this path (`method_not_allowed`): the API is read-only.",
      headers: z.object({ [REQUEST_ID_HEADER]: requestIdHeader, Allow: allowHeader }),
    },
    429: {
      description:
        "Too many requests (`rate_limited`): the key's budget is spent, or (policy `per-address`) too many requests without a valid key came from this client address. Wait for the seconds in Retry-After.",
      headers: z.object({
        [REQUEST_ID_HEADER]: requestIdHeader,
        [RATE_LIMIT_HEADER]: rateLimitHeader,
        [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicyHeader,
        [RETRY_AFTER_HEADER]: retryAfterHeader,
      }),
    },
    500: {
      description: "An unexpected server failure (`internal_error`). The body never contains internals.",
      headers: z.object({ [REQUEST_ID_HEADER]: requestIdHeader }),
    },
    503: {
      description:
        "The database is unreachable or too busy to answer within the server's time limit (`service_unavailable`); retry after the seconds in Retry-After.",
      headers: z.object({
        [REQUEST_ID_HEADER]: requestIdHeader,
        [RETRY_AFTER_HEADER]: retryAfterHeader.meta({ example: String(DATABASE_RETRY_AFTER_SECONDS) }),
      }),
    },
  };
  const notModified: ZodOpenApiResponseObject = {
    id: "NotModified",
    description: "Not modified: the If-None-Match header matched the current ETag. No body.",
    headers: z.object({
      [REQUEST_ID_HEADER]: requestIdHeader,
      ETag: etagHeader,
      "Cache-Control": cacheControlHeader,
      [RATE_LIMIT_HEADER]: rateLimitHeader.optional(),
      [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicyHeader.optional(),
    }),
  };
  const keyedOkHeaders = z.object({
    [REQUEST_ID_HEADER]: requestIdHeader,
    ETag: etagHeader,
    "Cache-Control": cacheControlHeader,
    [RATE_LIMIT_HEADER]: rateLimitHeader,
    [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicyHeader,
  });
  return { errors, notModified, keyedOkHeaders };
}

type ResponseSpecs = ReturnType<typeof responseSpecs>;

function ok(description: string, schema: z.ZodType, example: unknown, headers: z.ZodObject): ZodOpenApiResponseObject {
  return { description, headers, content: { "application/json": { schema, example } } };
}

/** The 200 of an operation that also answers Accept: text/markdown (its module's `markdown`). */
function withMarkdown(
  operation: KeyedOperation,
  response: ZodOpenApiResponseObject,
  headers: z.ZodObject,
): ZodOpenApiResponseObject {
  // Each operation's markdown takes its own output, which its example is.
  const markdown = operation.markdown as ((output: unknown) => string) | undefined;
  if (!markdown) return response;
  return {
    ...response,
    description: `${response.description} As markdown when \`Accept\` asks for \`text/markdown\`; the report's content, written by people, is fenced as data.`,
    headers: headers.extend({ Vary: varyAcceptHeader }),
    content: {
      ...response.content,
      "text/markdown": { schema: z.string(), example: markdown(operation.example) },
    },
  };
}

/** A paged operation's output carries next_cursor, and its 200 the Link to the next page. */
function isPaged(operation: Operation): boolean {
  return operation.output instanceof z.ZodObject && "next_cursor" in operation.output.shape;
}

/** How a paged operation pages, for machines (`x-pagination`): by cursor, in the body and in the Link header. */
const CURSOR_PAGINATION = {
  style: "cursor",
  cursor_parameter: "cursor",
  next_cursor_field: "next_cursor",
  page_size_parameter: "limit",
  next_link: { header: "Link", rel: "next" },
  end: "next_cursor is null and there is no Link rel=next on the last page",
  same_filters: true,
};

const publicOkHeaders = z.object({
  [REQUEST_ID_HEADER]: requestIdHeader,
  ETag: etagHeader,
  "Cache-Control": cacheControlHeader,
  Link: linkHeader,
});

/** The operation's parameters as OpenAPI request parameters, by where REST reads them. */
function requestParamsOf(operation: Operation): ZodOpenApiOperationObject["requestParams"] {
  const shapes: Record<"query" | "path", Record<string, z.ZodType>> = { query: {}, path: {} };
  for (const [name, parameter] of Object.entries(operation.parameters)) {
    shapes[parameter.in][name] = publishedSchema(parameter, "rest");
  }
  const present = Object.entries(shapes).filter(([, shape]) => Object.keys(shape).length > 0);
  return Object.fromEntries(present.map(([place, shape]) => [place, z.object(shape)]));
}

/** An operation's error responses: every status it can answer beyond 200, each with its own example. */
function errorResponsesOf(operation: Operation, specs: ResponseSpecs) {
  const examples = errorExamplesOf(operation);
  const statuses = statusesOf(operation).filter((status) => status !== 200);
  return Object.fromEntries(
    statuses.map((status): [number, ZodOpenApiResponseObject] => {
      if (status === 304) return [status, specs.notModified];
      const { description, headers } = specs.errors[status as ErrorStatus];
      const example = errorBody(examples[status as ErrorStatus]!, EXAMPLE_REQUEST_ID);
      return [status, { description, headers, content: { "application/json": { schema: errorSchema, example } } }];
    }),
  );
}

/** A keyed GET operation: security with the scope it needs, its rate limit, and the error responses it can give. */
function keyedOperation(
  operation: KeyedOperation,
  specs: ResponseSpecs,
  limits: RateLimits,
): ZodOpenApiOperationObject {
  const scopes = operation.scope ? [operation.scope] : [];
  const needs = operation.scope
    ? `Requires an API key with the \`${operation.scope}\` scope; a valid key without it gets 403 \`insufficient_scope\`.`
    : "Works with any valid API key, whatever its scopes.";
  const okHeaders = isPaged(operation) ? specs.keyedOkHeaders.extend({ Link: nextPageHeader }) : specs.keyedOkHeaders;
  const limited = `Rate limit: ${limits.key} requests per rolling ${RATE_LIMIT_WINDOW_SECONDS} seconds per key, shared with every keyed operation and MCP; see \`x-ratelimit\`.`;
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: `${operation.description}\n\n${needs} ${limited}`,
    security: [{ [SECURITY_SCHEMES.bearer]: scopes }, { [SECURITY_SCHEMES.header]: scopes }],
    ...(operation.scope ? { "x-required-scope": operation.scope } : {}),
    "x-ratelimit": rateLimitPolicyOf(limits),
    ...(isPaged(operation) ? { "x-pagination": CURSOR_PAGINATION } : {}),
    requestParams: requestParamsOf(operation),
    responses: {
      200: withMarkdown(operation, ok(operation.returns, operation.output, operation.example, okHeaders), okHeaders),
      ...errorResponsesOf(operation, specs),
    },
  };
}

/** The public root: no key, no organization data, counted against no budget. */
function publicOperation(operation: Operation, example: unknown, specs: ResponseSpecs): ZodOpenApiOperationObject {
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    security: [],
    "x-ratelimit": { policy: "none", description: "Needs no key and is counted against no budget." },
    responses: {
      200: ok(operation.returns, operation.output, example, publicOkHeaders),
      ...errorResponsesOf(operation, specs),
    },
  };
}

// Webhooks (OpenAPI 3.1 `webhooks`): the signed POSTs Sundown sends to an organization's endpoints, one per event
// type of the catalog (lib/schemas/webhook-events.ts) and the on-demand ping. The bodies are lib/schemas/webhooks.ts's.

const webhookIdHeader = z.string().meta({
  param: { id: "WebhookId" },
  description:
    "The event's id, the same as the body's `id`: unchanged on every attempt and redelivery of the event. Deliveries are at least once; deduplicate by it.",
  example: "7b6f2c1e-93a4-4d52-a0f8-2e51c9d4b7a3",
});
const webhookTimestampHeader = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({
    param: { id: "WebhookTimestamp" },
    description:
      "When this attempt was signed, in whole seconds since the Unix epoch (a retry carries a new one). Refuse a delivery more than 5 minutes away from your clock.",
    example: "1795282264",
  });
const webhookSignatureHeader = z.string().meta({
  param: { id: "WebhookSignature" },
  description:
    "Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64-decoded part of the endpoint's secret after `whsec_`. Two during a secret roll's overlap (new and old secret); accept the delivery when one matches.",
  example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
});

const webhookHeaders = z.object({
  "webhook-id": webhookIdHeader,
  "webhook-timestamp": webhookTimestampHeader,
  "webhook-signature": webhookSignatureHeader,
});

const WEBHOOK_RESPONSES = {
  "2XX": {
    description: `Delivered. Answer within ${ATTEMPT_TIMEOUT_MS / 1000} s; the answer's first ${RESPONSE_KEPT_BYTES} bytes are kept for the endpoint's deliveries list, and the rest is not read.`,
  },
  410: {
    description:
      "Gone: Sundown disables the endpoint and gives up its pending deliveries. Nothing more is sent until it is enabled again.",
  },
  default: {
    description: `Any other status (a redirect too: redirects are not followed), or no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s: the attempt failed, and is retried on the schedule in the webhooks guide.`,
  },
} satisfies ZodOpenApiOperationObject["responses"];

/** A subscribable event's operation: the catalog's words, and who receives it. */
const eventOperation = (type: WebhookEventType, operationId: string, summary: string) => ({
  operationId,
  summary,
  description: `${WEBHOOK_EVENTS[type].description} Sent to the endpoints subscribed to \`${type}\`; it carries nothing that a key with \`${WEBHOOK_EVENTS[type].scope}\` could not read.`,
});

const WEBHOOK_OPERATIONS: Record<WebhookMessageType, { operationId: string; summary: string; description: string }> = {
  "report.published": eventOperation("report.published", "reportPublished", "A report was published"),
  "report.updated": eventOperation("report.updated", "reportUpdated", "A report was replaced"),
  "report.deleted": eventOperation("report.deleted", "reportDeleted", "A report was deleted"),
  "member.updated": eventOperation("member.updated", "memberUpdated", "A person of the roster was added or changed"),
  ping: {
    operationId: "ping",
    summary: "A test delivery",
    description:
      "Sent on demand (Settings → Webhooks, or `sundown webhooks ping`) to one endpoint, whatever events it subscribes to; it cannot be subscribed to.",
  },
};

/** The examples: the first report of GET /api/v1/reports' example, as its event. */
function webhookExamples(base: string): Record<WebhookMessageType, WebhookPayload> {
  const report = OPERATIONS.list_reports.example.reports[0]!;
  const organizationId = OPERATIONS.identity.example.organization.id;
  return {
    "report.published": {
      id: "7b6f2c1e-93a4-4d52-a0f8-2e51c9d4b7a3",
      type: "report.published",
      timestamp: "2026-11-21T17:31:04.512Z",
      organization_id: organizationId,
      data: { report, url: `${base}/api/v1/reports/${report.id}` },
    },
    "report.updated": {
      id: "3f1a8c27-6d4e-4b90-8e15-c2a7d9f04b61",
      type: "report.updated",
      timestamp: "2026-11-21T18:02:47.120Z",
      organization_id: organizationId,
      data: { report, url: `${base}/api/v1/reports/${report.id}` },
    },
    "report.deleted": {
      id: "a84e0d5b-2c19-4f73-9b6a-71e3c5d8f092",
      type: "report.deleted",
      timestamp: "2026-11-21T18:15:09.338Z",
      organization_id: organizationId,
      data: { report },
    },
    "member.updated": {
      id: "3f1c8a2d-6b4e-4c7a-9e5d-0a2b4c6d8e1f",
      type: "member.updated",
      timestamp: "2026-11-21T17:35:12.204Z",
      organization_id: organizationId,
      data: { member: OPERATIONS.team.example.members[0]! },
    },
    ping: {
      id: "0c9e4d3a-5f71-4b8e-9a26-d1f0e7b4c852",
      type: "ping",
      timestamp: "2026-11-21T17:40:00.000Z",
      organization_id: organizationId,
      data: {
        endpoint_id: "e2d7a9b4-1c63-4f05-8b9e-3a6f0d2c7e18",
        message: PING_MESSAGE,
      },
    },
  };
}

function webhookOperations(base: string): Record<WebhookMessageType, { post: ZodOpenApiOperationObject }> {
  const examples = webhookExamples(base);
  const operation = (type: WebhookMessageType): { post: ZodOpenApiOperationObject } => ({
    post: {
      ...WEBHOOK_OPERATIONS[type],
      description: `${WEBHOOK_OPERATIONS[type].description}\n\nA POST with \`Content-Type: application/json\` and \`User-Agent: ${WEBHOOK_USER_AGENT}\`, signed as the Standard Webhooks specification says: verify the signature over the raw body before parsing it.`,
      tags: ["Webhooks"],
      security: [],
      requestParams: { header: webhookHeaders },
      requestBody: {
        required: true,
        content: { "application/json": { schema: WEBHOOK_PAYLOADS[type], example: examples[type] } },
      },
      responses: WEBHOOK_RESPONSES,
    },
  });
  const types = Object.keys(WEBHOOK_OPERATIONS) as WebhookMessageType[];
  return Object.fromEntries(types.map((type) => [type, operation(type)])) as Record<
    WebhookMessageType,
    { post: ZodOpenApiOperationObject }
  >;
}

function createApiDocument(base: string) {
  const env = getEnv();
  const limits: RateLimits = { key: env.SUNDOWN_RATE_LIMIT, address: env.SUNDOWN_ADDRESS_RATE_LIMIT };
  const specs = responseSpecs(limits);
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Sundown API",
        version: API_VERSION,
        description: [
          "Sundown gives AI agents and scripts read-only access to one organization's end-of-day reports",
          "(shipped, silent, slipping, blockers, KPI status) and its team roster. Every call is a GET;",
          "nothing is created, changed or deleted. Contact details (email, chat ids) never appear in a response.",
          "",
          "Sundown also sends signed webhooks (`webhooks` below): POSTs to the endpoints an organization registers,",
          "following the Standard Webhooks specification. They are not operations of this API, which stays GET-only.",
          "",
          `Authenticate with an organization-scoped API key (\`sdn_sk_…\`) in \`Authorization: Bearer <API_KEY>\` or \`X-API-Key: <API_KEY>\`.`,
          "Founders and leads create keys in Settings → API keys; the secret is shown once.",
          "",
          `Each key may make ${limits.key} requests per rolling minute (at most that many in any 60 seconds); every keyed response carries`,
          "`RateLimit` and `RateLimit-Policy` headers, and a 429 adds `Retry-After`.",
          "",
          `The same keys work with the MCP server at ${base}/api/mcp (Streamable HTTP; tools ${KEYED_OPERATIONS.map((operation) => operation.tool!.name).join(", ")}).`,
        ].join("\n"),
      },
      externalDocs: {
        description: "Guide: quick start, authentication, errors and limits, MCP setup",
        url: `${base}/docs`,
      },
      servers: [{ url: base, description: "This Sundown server" }],
      tags: [
        { name: "Discovery", description: "Public, unauthenticated description of the API." },
        { name: "Identity", description: "Who the calling key belongs to." },
        { name: "Reports", description: "End-of-day reports of the key's organization." },
        { name: "Team", description: "The team roster of the key's organization, without contact details." },
        {
          name: "Webhooks",
          description:
            "What Sundown POSTs to an organization's webhook endpoints: signed, retried for about three days, at least once.",
        },
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
            name: API_KEY_HEADER,
            description: "The same API key in the `X-API-Key` header, for clients that cannot set Authorization.",
          },
        },
      },
      paths: {
        [OPERATIONS.root.path]: { get: publicOperation(OPERATIONS.root, buildApiRoot(base), specs) },
        ...Object.fromEntries(
          KEYED_OPERATIONS.map((operation) => [operation.path, { get: keyedOperation(operation, specs, limits) }]),
        ),
      },
      webhooks: webhookOperations(base),
    },
    { override: simplifySchema },
  );
}

type JsonSchemaNode = Record<string, unknown>;

/**
 * Renders zod's `anyOf: [{type: T, …}, {type: "null"}]` as `type: [T, "null"]` and `additionalProperties: {}` as
 * `true`. Both forms mean the same in JSON Schema 2020-12; these are the ones renderers and code generators read
 * best (Scalar's document store rejects the first form inside component schemas).
 *
 * The document's only request bodies are the webhooks' (no operation takes one): bodies Sundown writes, so they are
 * rendered as what Sundown outputs, objects closed as in its answers. That way the report inside report.published
 * is the one ReportSummary component the answers use, not an input twin of it.
 */
function simplifySchema({ jsonSchema, io }: { jsonSchema: JsonSchemaNode; io: "input" | "output" }): void {
  if (io === "input" && jsonSchema.type === "object" && !("additionalProperties" in jsonSchema))
    jsonSchema.additionalProperties = false;
  const extra = jsonSchema.additionalProperties;
  if (extra && typeof extra === "object" && Object.keys(extra).length === 0) jsonSchema.additionalProperties = true;
  const anyOf = jsonSchema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return;
  const isNull = (node: JsonSchemaNode) => node.type === "null" && Object.keys(node).length === 1;
  const other = anyOf.find((node: JsonSchemaNode) => !isNull(node)) as JsonSchemaNode | undefined;
  if (
    !other ||
    !anyOf.some(isNull) ||
    typeof other.type !== "string" ||
    "enum" in other ||
    "const" in other ||
    "$ref" in other
  )
    return;
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
