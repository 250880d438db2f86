import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { BRIEFING_LIMIT } from "@/lib/schemas/briefing";
import { REPORT_LIMIT, reportLimitSchema, reportScopeSchema } from "@/lib/schemas/reports";
import { memberRoleSchema } from "@/lib/schemas/team";
import { INSTANT_RANGE_TEXT, isInInstantRange, type PeriodBound } from "@/lib/schemas/instant";
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN, decodeCursor, type Cursor } from "./cursor";

// The inputs of the operations. Each is judged by one function, `parse`, whether it arrives in a REST query
// string or path, or as an MCP tool argument, so the same input gets the same answer and message everywhere.

/**
 * How a description names the operation a value comes from, as the surface publishing it does: REST by method and
 * path (GET /api/v1/team), MCP by its tool (list_team). Supplied by publishedSchema (lib/operations/table.ts).
 */
export type Cite = (operation: CitedOperation) => string;

/** The operations a parameter's description may name (checked against the table where Cite is made). */
type CitedOperation = "list_reports" | "team";

export interface Parameter<T> {
  /** Where REST reads it. */
  in: "query" | "path";
  /** What OpenAPI and MCP's tools/list publish (through publishedSchema, which adds `describe`'s text). */
  schema: z.ZodType;
  /** The description, for a parameter whose values come from another operation: each surface names it its own way. */
  describe?: (cite: Cite) => string;
  /** Absent is fine (a default applies); path parameters never are. */
  optional: boolean;
  /**
   * It narrows which items a paged list answers, so every page must be asked with it unchanged: a cursor carries a
   * digest of the list's filters (lib/operations/cursor.ts). Marked in the operations table, with asFilter.
   */
  filter?: true;
  /** What the docs write for its values, e.g. `1–50` or `uuid`. */
  accepts: string;
  /** What it accepts, in one sentence: the message of every refusal. */
  rule: string;
  /**
   * REST's text as the JSON value `parse` judges (omitted: the text itself). Query strings are strict: a value
   * that is not plainly of the type stays text, and `parse` refuses it.
   */
  fromText?: (text: string) => unknown;
  /** The parsed value as REST's text again, for the stdio server's requests (omitted: String(value)). */
  toText?(value: T): string;
  /** The one judge of this input; `undefined` means absent. Refusals are invalid_parameter errors naming it. */
  parse(value: unknown): T;
}

function invalid(message: string): ApiError {
  return new ApiError("invalid_parameter", message);
}

/**
 * Any 8-4-4-4-12 hex id, whatever its version bits (what PostgreSQL's uuid type accepts), lower-cased: an unknown
 * id is then a 404 or an empty list, on REST and MCP alike, never a refusal. Published as the same pattern.
 */
const uuidSchema = z.string().regex(UUID_SHAPE);

function parseUuid(value: unknown, rule: string): string {
  if (typeof value !== "string" || !UUID_SHAPE.test(value)) throw invalid(rule);
  return value.toLowerCase();
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

const SECTION_LIMIT_RULE = `limit must be an integer from ${BRIEFING_LIMIT.min} to ${BRIEFING_LIMIT.max} (default ${BRIEFING_LIMIT.default}).`;
const sectionLimitSchema = z
  .int()
  .min(BRIEFING_LIMIT.min)
  .max(BRIEFING_LIMIT.max)
  .default(BRIEFING_LIMIT.default)
  .meta({ description: "How many items each section of the briefing lists at most; each says how many more it has." });

/** The briefing's `limit`: items per section, not reports per page. */
export const sectionLimitParameter: Parameter<number> = {
  in: "query",
  schema: sectionLimitSchema,
  optional: true,
  accepts: `${BRIEFING_LIMIT.min}–${BRIEFING_LIMIT.max}`,
  rule: SECTION_LIMIT_RULE,
  fromText: (text) => (DIGITS.test(text) ? Number(text) : text),
  parse(value) {
    const parsed = sectionLimitSchema.safeParse(value);
    if (!parsed.success) throw invalid(SECTION_LIMIT_RULE);
    return parsed.data;
  },
};

/** A report id; the database decides whether it exists. */
export const reportIdParameter: Parameter<string> = {
  in: "path",
  schema: uuidSchema.meta({ format: "uuid", examples: ["3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b"] }),
  describe: (cite) => `The report's id: a UUID, as in the \`id\` of a report ${cite("list_reports")} returns.`,
  optional: false,
  accepts: "uuid",
  rule: REPORT_ID_RULE,
  parse: (value) => parseUuid(value, REPORT_ID_RULE),
};

/** `parameter` as one of the filters of the operation that takes it (see Parameter.filter). */
export function asFilter<T>(parameter: Parameter<T>): Parameter<T> & { filter: true } {
  return { ...parameter, filter: true };
}

/** How the docs write a parameter: `limit?: 1–50`, `id: uuid`. */
export function synopsisOf(name: string, parameter: Parameter<unknown>): string {
  return `${name}${parameter.optional ? "?" : ""}: ${parameter.accepts}`;
}

// ---- Report history: period, scope, member, search, pages (GET /api/v1/reports, list_reports) ----

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_OF_DAY = String.raw`\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})`;
const DATE_TIME = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})T${TIME_OF_DAY}$`);
const DAY_MS = 86_400_000;
/** Either form, as one pattern for the published schemas (the calendar and the range are parse()'s to check). */
const PERIOD_BOUND_PATTERN = String.raw`^\d{4}-\d{2}-\d{2}(T${TIME_OF_DAY})?$`;

/** Milliseconds of a calendar date at 00:00 UTC, or undefined for a date that does not exist (2026-02-30). */
function utcDay(year: string, month: string, day: string): number | undefined {
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  const time = date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const exists =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day);
  return exists ? time : undefined;
}

/**
 * A period bound as parsed: a calendar day, which the database counts in the organization's time zone
 * (lib/data/period-bounds.ts), or an instant, which is the same everywhere. `since` takes a day from its first
 * millisecond, `until` to its last: both inclusive.
 */
export type { PeriodBound };

/** A bound as the query string writes it again: the day as given, the instant as ISO 8601 with Z. */
export function periodBoundText(bound: PeriodBound): string {
  return bound.day ?? bound.instant!;
}

/**
 * A period bound: a date (a whole day in the organization's time zone) or a date-time with its zone, at most to
 * the millisecond (what generated_at holds). The day stays a day here: only the database, which holds the
 * organization's zone, turns it into instants, in the same statement that reads the reports.
 */
function periodBound(name: "since" | "until"): Parameter<PeriodBound | undefined> {
  const rule =
    `${name} must be a date (2026-11-20, a whole day in the organization's time zone) or a date-time with a zone ` +
    `(2026-11-20T09:00:00Z), at most to the millisecond.`;
  const outOfRange = `${name} must lie ${INSTANT_RANGE_TEXT}.`;
  return {
    in: "query",
    schema: z
      .string()
      .optional()
      .meta({
        description: `${name === "since" ? "Oldest" : "Newest"} generated_at to include (inclusive): a date (a whole day in the organization's time zone, UTC unless set) or a date-time with a zone.`,
        examples: ["2026-11-16", "2026-11-16T09:00:00+01:00"],
        pattern: PERIOD_BOUND_PATTERN,
      }),
    optional: true,
    accepts: "date or date-time",
    rule,
    toText: (bound) => periodBoundText(bound!),
    parse(value) {
      if (value === undefined) return undefined;
      if (typeof value !== "string") throw invalid(rule);
      const date = DATE.exec(value);
      if (date) {
        const day = utcDay(date[1]!, date[2]!, date[3]!);
        if (day === undefined) throw invalid(rule);
        // Checked as a UTC day: any zone moves it by less than a day, which timestamptz holds either way.
        if (!isInInstantRange(name === "since" ? day : day + DAY_MS - 1)) throw invalid(outOfRange);
        return { day: value };
      }
      const dateTime = DATE_TIME.exec(value);
      const instant = Date.parse(value);
      if (!dateTime || utcDay(dateTime[1]!, dateTime[2]!, dateTime[3]!) === undefined || Number.isNaN(instant)) {
        throw invalid(rule);
      }
      if (!isInInstantRange(instant)) throw invalid(outOfRange);
      return { instant: new Date(instant).toISOString() };
    },
  };
}

/**
 * Whether a period can hold nothing whatever the zone: since after until, compared like with like (two days as
 * days, two instants as instants). A day against an instant depends on the zone, which only the database knows;
 * such a period is read as given, and an empty one is an empty list.
 */
function isReversedPeriod(since: PeriodBound | undefined, until: PeriodBound | undefined): boolean {
  if (!since || !until) return false;
  if (since.day !== undefined && until.day !== undefined) return since.day > until.day;
  if (since.instant !== undefined && until.instant !== undefined)
    return Date.parse(since.instant) > Date.parse(until.instant);
  return false;
}

/** The check of every operation that takes a period: a reversed one is refused (invalid_parameter). */
export function requireOrderedPeriod(input: { since?: PeriodBound; until?: PeriodBound }): void {
  if (isReversedPeriod(input.since, input.until)) {
    throw new ApiError("invalid_parameter", "since must not be after until.");
  }
}

export const sinceParameter = periodBound("since");
export const untilParameter = periodBound("until");

/** A closed set of words, e.g. a report's scope or a member's role. */
function oneOf<const T extends string>(
  name: string,
  values: readonly T[],
  description: string,
): Parameter<T | undefined> {
  const rule = `${name} must be one of ${values.join(", ")}.`;
  return {
    in: "query",
    schema: z.enum(values).optional().meta({ description }),
    optional: true,
    accepts: values.join(" | "),
    rule,
    parse(value) {
      if (value === undefined) return undefined;
      if (typeof value !== "string" || !(values as readonly string[]).includes(value)) throw invalid(rule);
      return value as T;
    },
  };
}

export const expandParameter = oneOf(
  "expand",
  ["report"],
  "report: each summary also brings its report's full content (`report`, masked as get_report's), so a period reads in pages, not a call per report.",
);

export const reportScopeParameter = oneOf(
  "scope",
  reportScopeSchema.options,
  "Only reports of this scope: org (the whole company), lead (one lead's area) or member (one person).",
);

// The refusal is the same text on every surface, so it names no surface's way of listing the team.
const SCOPE_TARGET_RULE = "scope_target_id must be a member's id: a UUID, as the team roster lists it.";

export const scopeTargetIdParameter: Parameter<string | undefined> = {
  in: "query",
  schema: uuidSchema.optional().meta({ format: "uuid", examples: ["5d0e0002-0002-4002-8002-00000000ac3e"] }),
  describe: (cite) =>
    `Only reports about this lead or member: their \`id\` (a UUID) as ${cite("team")} lists it; scope narrows it to their lead or member reports.`,
  optional: true,
  accepts: "uuid",
  rule: SCOPE_TARGET_RULE,
  parse: (value) => (value === undefined ? undefined : parseUuid(value, SCOPE_TARGET_RULE)),
};

const Q_MAX = 200;
const Q_RULE = `q must be 1 to ${Q_MAX} characters of text to search for, without control characters.`;
const hasControlCharacter = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f");

export const searchParameter: Parameter<string | undefined> = {
  in: "query",
  schema: z
    .string()
    .min(1)
    .max(Q_MAX)
    .optional()
    .meta({
      description:
        'Words to find in the report\'s text (headline and items), as served: English stemming, "quoted phrases", OR, and -word to exclude.',
      examples: ["staging database", '"gripper firmware" -vendor'],
    }),
  optional: true,
  accepts: "text",
  rule: Q_RULE,
  parse(value) {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || hasControlCharacter(value)) throw invalid(Q_RULE);
    const words = value.trim();
    if (words.length === 0 || words.length > Q_MAX) throw invalid(Q_RULE);
    return words;
  },
};

/** The message for any cursor this server did not issue for this list: malformed, edited, or another's. */
export const CURSOR_RULE = "cursor must be the next_cursor of a previous page of this list, unchanged.";

export const cursorParameter: Parameter<Cursor | undefined> = {
  in: "query",
  // Shape and length as metadata only: the published schema lets typed clients check, while parse() keeps
  // the refusal and its message the same on every surface.
  schema: z.string().optional().meta({
    description: "The next_cursor of the previous page, sent with the same filters; leave it out for the first page.",
    pattern: CURSOR_PATTERN,
    maxLength: CURSOR_MAX_LENGTH,
  }),
  optional: true,
  accepts: "next_cursor",
  rule: CURSOR_RULE,
  toText: (cursor) => cursor!.text,
  parse(value) {
    if (value === undefined) return undefined;
    const cursor = typeof value === "string" ? decodeCursor(value) : undefined;
    if (!cursor) throw invalid(CURSOR_RULE);
    return cursor;
  },
};

// ---- The roster (GET /api/v1/team, list_team) ----

export const roleParameter = oneOf("role", memberRoleSchema.options, "Only members with this role.");

const ACTIVE_RULE = "active must be true or false.";
// The words a query string spells a boolean with, and MCP clients often send as a string too ({"active": "true"},
// or "True" from Python): one rule reads them alike on both surfaces. Published as a boolean, the canonical form.
const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ["true", true],
  ["false", false],
]);

export const activeParameter: Parameter<boolean | undefined> = {
  in: "query",
  schema: z.boolean().optional().meta({ description: "Only active (true) or only inactive (false) members." }),
  optional: true,
  accepts: "true | false",
  rule: ACTIVE_RULE,
  parse(value) {
    if (value === undefined || typeof value === "boolean") return value;
    const word = typeof value === "string" ? BOOLEAN_WORDS.get(value.toLowerCase()) : undefined;
    if (word === undefined) throw invalid(ACTIVE_RULE);
    return word;
  },
};
