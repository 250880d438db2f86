import type { Scope } from "@/lib/auth/scopes";
import { RETRY_AFTER_HEADER } from "@/lib/header-names";

// Errors of every surface (REST, MCP, CLI, settings), free of any transport.
// One table from error code to HTTP status. The contract's codes come first; the rest are
// the house's own for what the contract leaves open (docs/limits-and-errors.md).
export const ERROR_STATUS = {
  invalid_parameter: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  // A browser origin the MCP endpoint does not serve, or a cross-site server-action POST.
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  // Never from the read API: an action the key's state does not allow (settings page, CLI), or reports that differ
  // from stored ones (the ingest endpoint).
  conflict: 409,
  // MCP endpoint only: an Accept header without application/json and text/event-stream, or a body that is not JSON.
  not_acceptable: 406,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * When each code is answered, in the one sentence every table of codes prints beside its status: the /docs page,
 * llms-full.txt and docs/limits-and-errors.md (written by hand, checked by tests/unit/error-docs.test.ts). Plain
 * text, so that HTML and markdown print it alike.
 */
export const ERROR_DESCRIPTIONS = {
  invalid_parameter:
    "A parameter is invalid, given twice or unknown to the operation (a limit out of range, a date that does not exist, since after until, a cursor made for other filters…); the message names it, and for an unknown one the parameters the operation takes.",
  unauthorized: "The key is missing, malformed, unknown, revoked or expired.",
  insufficient_scope: "The key is valid but lacks the scope; required_scope names it.",
  forbidden: "A browser Origin the MCP endpoint does not serve, or a cross-site form post.",
  not_found: "No such report in your organization, or no such path.",
  method_not_allowed: "Anything but GET or HEAD: the API is read-only.",
  conflict:
    "Never from the read API: POST /ingest/v1 refusing reports that differ from the stored ones (without replace=true), or the settings page or the CLI refusing to roll a revoked, expired or already rolled key.",
  not_acceptable: "MCP only: the Accept header lacks application/json or text/event-stream.",
  payload_too_large: "The body is too large: an MCP message, a POST /ingest/v1 batch, or a settings page's form.",
  unsupported_media_type: "MCP and POST /ingest/v1 only: the Content-Type is not application/json.",
  rate_limited: "Too many requests for this key; wait Retry-After seconds.",
  internal_error: "An unexpected failure on our side. Quote the request_id.",
  service_unavailable: "The database is unreachable or too busy to answer in time; retry after Retry-After seconds.",
} as const satisfies Record<ErrorCode, string>;

/** The code for a status answered elsewhere (the REST API seen by the stdio server, the MCP transport). */
export function errorCodeForStatus(status: number): ErrorCode {
  const match = (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).find(([, s]) => s === status);
  if (match) return match[0];
  return status >= 400 && status < 500 ? "invalid_parameter" : "internal_error";
}

/**
 * The words of refusals that several places answer or describe: thrown by the key admission, the method guard and
 * the report read, and quoted by the OpenAPI document's examples (lib/openapi/document.ts), so both say the same.
 */
export const ERROR_MESSAGES = {
  insufficientScope: (scope: Scope) => `This API key lacks the ${scope} scope.`,
  keyRateLimited: `Rate limit exceeded for this API key. Retry after the time in ${RETRY_AFTER_HEADER}.`,
  readOnly: "This API is read-only: use GET or HEAD.",
  reportNotFound: "No report with this id exists in your organization.",
} as const;

export interface ApiErrorOptions {
  requiredScope?: Scope;
  /** Extra response headers, e.g. Retry-After or Allow. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly requiredScope?: Scope;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
    this.requiredScope = options.requiredScope;
    this.headers = options.headers ?? {};
  }
}

export interface ErrorBody {
  error: ErrorCode;
  message?: string;
  required_scope?: Scope;
  request_id?: string;
}

export function errorBody(error: ApiError, requestId?: string): ErrorBody {
  return {
    error: error.code,
    message: error.message,
    ...(error.requiredScope ? { required_scope: error.requiredScope } : {}),
    ...(requestId ? { request_id: requestId } : {}),
  };
}

// Failures that mean "the database cannot be reached right now" rather than "our code is wrong".
// Prisma codes: P1001 unreachable, P1002 timed out, P1008 operation timed out, P1017 connection closed,
// P2024 pool timeout; node error codes come through driver adapters unchanged. PostgreSQL's 57014 is a
// cancelled statement (a statement_timeout an operator set, or our own cancel), and pg's "Query read timeout"
// the client's limit (lib/db/bounded-pool.ts): a database too slow to answer in DATABASE_TIMEOUT_MS is unavailable for now.
const UNAVAILABLE_CODES = new Set([
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "57014",
]);
const UNAVAILABLE_MESSAGES =
  /Can't reach database|Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout|ECONNREFUSED|DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|the database system is (starting up|shutting down)|terminating connection/i;

/** Whether `error` (or one of its causes) means the database cannot answer now, rather than a bug of ours. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown };
  if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.kind === "string" && UNAVAILABLE_MESSAGES.test(e.kind)) return true;
  if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Maps anything thrown to an ApiError; unknown failures become a 500 that reveals nothing. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      "service_unavailable",
      "The database is unreachable or too busy to answer in time. Try again shortly.",
      {
        headers: { [RETRY_AFTER_HEADER]: String(DATABASE_RETRY_AFTER_SECONDS) },
        cause: error,
      },
    );
  }
  return new ApiError("internal_error", "An unexpected error occurred.", { cause: error });
}
