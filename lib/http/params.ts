import { UUID_SHAPE } from "@/lib/schemas/common";
import { listReportsQuery, REPORT_LIMIT } from "@/lib/schemas/reports";
import { ApiError } from "./errors";

// Query and path parsing is strict: only plain decimal digits are an integer, a parameter may be
// given once, and every refusal names the parameter and what it accepts.

const DIGITS = /^[0-9]{1,6}$/;

const LIMIT_MESSAGE = `limit must be an integer from ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max} (default ${REPORT_LIMIT.default}).`;

export function parseListReportsQuery(params: URLSearchParams): { limit: number } {
  const values = params.getAll("limit");
  if (values.length > 1) throw new ApiError("invalid_parameter", `limit may be given only once; ${LIMIT_MESSAGE}`);
  const raw = values[0];
  if (raw === undefined) return listReportsQuery.parse({});
  if (!DIGITS.test(raw)) throw new ApiError("invalid_parameter", LIMIT_MESSAGE);
  const parsed = listReportsQuery.safeParse({ limit: Number(raw) });
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
