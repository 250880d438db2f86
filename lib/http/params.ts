import { UUID_SHAPE } from "@/lib/schemas/common";
import { REPORT_LIMIT, reportLimitSchema } from "@/lib/schemas/reports";
import { ApiError } from "@/lib/errors";

// Parameter parsing for REST and MCP alike, so the same input gets the same answer and message on both.
// Query strings are strict: only plain decimal digits are an integer, a parameter may be given once, and
// every refusal names the parameter and what it accepts.

const DIGITS = /^[0-9]{1,6}$/;

const LIMIT_MESSAGE = `limit must be an integer from ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max} (default ${REPORT_LIMIT.default}).`;

export function parseListReportsQuery(params: URLSearchParams): { limit: number } {
  const values = params.getAll("limit");
  if (values.length > 1) throw new ApiError("invalid_parameter", `limit may be given only once; ${LIMIT_MESSAGE}`);
  const raw = values[0];
  if (raw !== undefined && !DIGITS.test(raw)) throw new ApiError("invalid_parameter", LIMIT_MESSAGE);
  return { limit: parseReportLimit(raw === undefined ? undefined : Number(raw)) };
}

/** `limit` as a JSON value (an MCP argument, or REST's digits as a number); absent means the default. */
export function parseReportLimit(limit: unknown): number {
  const parsed = reportLimitSchema.safeParse(limit);
  if (!parsed.success) throw new ApiError("invalid_parameter", LIMIT_MESSAGE);
  return parsed.data;
}

/** The report id from the path. Any 8-4-4-4-12 hex id is accepted; the database decides whether it exists. */
export function parseReportId(id: unknown): string {
  if (typeof id !== "string" || !UUID_SHAPE.test(id)) {
    throw new ApiError("invalid_parameter", "id must be a UUID, e.g. 3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b.");
  }
  return id.toLowerCase();
}
