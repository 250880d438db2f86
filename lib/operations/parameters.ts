import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { REPORT_LIMIT, reportLimitSchema } from "@/lib/schemas/reports";

// The inputs of the operations. Each is judged by one function, `parse`, whether it arrives in a REST query
// string or path, or as an MCP tool argument, so the same input gets the same answer and message everywhere.

export interface Parameter<T> {
  /** Where REST reads it. */
  in: "query" | "path";
  /** What OpenAPI and MCP's tools/list publish. */
  schema: z.ZodType;
  /** Absent is fine (a default applies); path parameters never are. */
  optional: boolean;
  /** What the docs write for its values, e.g. `1–50` or `uuid`. */
  accepts: string;
  /** What it accepts, in one sentence: the message of every refusal. */
  rule: string;
  /**
   * REST's text as the JSON value `parse` judges (omitted: the text itself). Query strings are strict: a value
   * that is not plainly of the type stays text, and `parse` refuses it.
   */
  fromText?: (text: string) => unknown;
  /** The one judge of this input; `undefined` means absent. Refusals are invalid_parameter errors naming it. */
  parse(value: unknown): T;
}

function invalid(message: string): ApiError {
  return new ApiError("invalid_parameter", message);
}

const DIGITS = /^[0-9]{1,6}$/;
const LIMIT_RULE = `limit must be an integer from ${REPORT_LIMIT.min} to ${REPORT_LIMIT.max} (default ${REPORT_LIMIT.default}).`;
const REPORT_ID_RULE = "id must be a UUID, e.g. 3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b.";

export const limitParameter: Parameter<number> = {
  in: "query",
  schema: reportLimitSchema,
  optional: true,
  accepts: `${REPORT_LIMIT.min}–${REPORT_LIMIT.max}`,
  rule: LIMIT_RULE,
  fromText: (text) => (DIGITS.test(text) ? Number(text) : text),
  parse(value) {
    const parsed = reportLimitSchema.safeParse(value);
    if (!parsed.success) throw invalid(LIMIT_RULE);
    return parsed.data;
  },
};

/**
 * A report id: any 8-4-4-4-12 hex id, whatever its version bits (what PostgreSQL's uuid type accepts), so an
 * unknown id is a 404 on REST and MCP alike; the database decides whether it exists.
 */
export const reportIdParameter: Parameter<string> = {
  in: "path",
  schema: z
    .string()
    .regex(UUID_SHAPE)
    .meta({ format: "uuid", description: "The report identifier.", example: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b" }),
  optional: false,
  accepts: "uuid",
  rule: REPORT_ID_RULE,
  parse(value) {
    if (typeof value !== "string" || !UUID_SHAPE.test(value)) throw invalid(REPORT_ID_RULE);
    return value.toLowerCase();
  },
};

/** How the docs write a parameter: `limit?: 1–50`, `id: uuid`. */
export function synopsisOf(name: string, parameter: Parameter<unknown>): string {
  return `${name}${parameter.optional ? "?" : ""}: ${parameter.accepts}`;
}
