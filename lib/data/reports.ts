import { z } from "zod";
import { isoFromUtcJson, UTC_JSON_TIMESTAMP, utcTimestamp } from "@/lib/db/sql";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import {
  REPORT_LIMIT,
  reportContentSchema,
  reportSchema,
  reportSummarySchema,
  type Report,
  type ReportScope,
  type ReportSummary,
} from "@/lib/schemas/reports";
import type { PeriodBound } from "@/lib/schemas/instant";
import { boundSql, organizationTimeZoneSql } from "./period-bounds";
import { defineScrubbedRead, type OrganizationRead, type Placeholder } from "./organization-read";
import { scrubContactDetails } from "./scrub";

// The report reads, as SQL that builds the API's JSON in the database (lib/data/organization-read.ts).
// Column names are the API's; timestamps are served as toISOString() writes them. Both are scrubbed reads: the
// organization's own contact details (lib/data/known-contacts.ts) are removed from what they serve.

/**
 * Which reports a list asks for, beyond its organization; absent filters are left out. Named as GET
 * /api/v1/reports names them: they are the filters the operations table marks (lib/operations/table.ts), checked
 * against it in tests/unit/report-filters.test.ts.
 */
export interface ReportFilters {
  /** Inclusive bounds on generated_at: instants, or days in the organization's time zone. */
  since?: PeriodBound;
  until?: PeriodBound;
  scope?: ReportScope;
  scope_target_id?: string;
  /** Words to find in the report's served text (web search syntax: quotes, OR, -word). */
  q?: string;
}

/** A page's read, by name: its filters, then the previous page's last report, after which it starts. */
interface PageArguments extends Omit<ReportFilters, "since" | "until"> {
  /** Each bound is a day or an instant: two arguments, one of them present, so each form is its own statement. */
  since_day?: string;
  since_instant?: string;
  until_day?: string;
  until_instant?: string;
  after_generated_at?: string;
  after_id?: string;
  /** "report": each summary brings its report's content too (expand=report). */
  expand?: "report";
}

type PageArgument = keyof PageArguments;

/**
 * The order a page's read takes its arguments in (organization-read.ts reads are positional), written as an object so
 * that the compiler holds it to PageArguments: every argument, once. The order names the read's statements: keep it.
 */
const PAGE_ARGUMENTS = Object.keys({
  since_day: 0,
  since_instant: 0,
  until_day: 0,
  until_instant: 0,
  scope: 0,
  scope_target_id: 0,
  q: 0,
  after_generated_at: 0,
  after_id: 0,
  expand: 0,
} satisfies Record<PageArgument, 0>) as PageArgument[];

/** A read's positional arguments (or their placeholders) by name again. */
function byName<T>(values: readonly T[]): Record<PageArgument, T> {
  return Object.fromEntries(PAGE_ARGUMENTS.map((name, index) => [name, values[index]])) as Record<PageArgument, T>;
}

/** One page of a report list, newest first, and whether more follow after its last report. */
export interface ReportPage {
  reports: ReportSummary[];
  more: boolean;
  /** Set when whole reports (expand=report) filled the page before `limit`: the rest follow on the next page. */
  cut?: true;
}

/**
 * The JSON a page of whole reports holds at most (about 50,000 tokens at four characters a token, within what a
 * model's tool result may take): past it, the page ends early, says so, and next_cursor continues after it.
 */
export const EXPANDED_PAGE_MAX_BYTES = 200_000;

/** A report's instant as the statements build it: UTC time (utcTimestamp), formatted here (isoFromUtcJson). */
const storedInstant = z.string().regex(UTC_JSON_TIMESTAMP);

const listedSummarySchema = reportSummarySchema.extend({
  generated_at: storedInstant,
  report: reportContentSchema.optional(),
});

/**
 * Most recent reports of one organization, optionally filtered, a page at a time: ties on generated_at are
 * broken by id, and a page starts strictly after the previous page's last (generated_at, id), so pages stay
 * stable while new reports arrive. One report more than the page is read, to tell whether another page follows.
 *
 * The page size is written into the statement, one read per size (1 to 50, checked before it gets here), not
 * sent as a parameter: with `LIMIT $n` PostgreSQL prices a generic plan for an unknown limit (a tenth of the
 * reports) and so plans every execution again for its values; with the size in the text the generic plan costs
 * what a custom one does, and after five executions a named statement is planned no more (bench:statements).
 */
function reportPageRead(limit: number): ReportPageRead {
  let read = reportPageReads.get(limit);
  if (read) return read;
  // Inlined into SQL, and each size is a statement of its own: only the sizes the API accepts.
  if (!Number.isInteger(limit) || limit < REPORT_LIMIT.min || limit > REPORT_LIMIT.max)
    throw new RangeError(`page size ${limit} outside ${REPORT_LIMIT.min}-${REPORT_LIMIT.max}`);
  read = defineScrubbedRead({
    name: `report_list_${limit}`,
    sql: (organizationId, ...slots) => {
      const { scope, scope_target_id, q, after_generated_at, after_id, expand, ...bounds } = byName(slots);
      const where = [`organization_id = ${organizationId}`];
      const zone = organizationTimeZoneSql(organizationId);
      const since = boundSql("since", { day: bounds.since_day, instant: bounds.since_instant }, zone);
      const until = boundSql("until", { day: bounds.until_day, instant: bounds.until_instant }, zone);
      if (since) where.push(`generated_at >= ${since}`);
      if (until) where.push(`generated_at <= ${until}`);
      if (scope) where.push(`scope = ${scope}::report_scope`);
      if (scope_target_id) where.push(`scope_target_id = ${scope_target_id}::uuid`);
      if (q) where.push(`search_vector @@ websearch_to_tsquery('english', ${q})`);
      // The argument is the word "report" itself: written into the condition so the statement knows its type.
      if (expand) where.push(`${expand}::text = 'report'`);
      if (after_generated_at && after_id)
        where.push(`(generated_at, id) < (${after_generated_at}::timestamptz, ${after_id}::uuid)`);
      // Each summary is the subquery's row turned into JSON whole (its column names are the API's), in the
      // subquery's order: json_build_object per row cost the database about a sixth of the keyed list's CPU
      // (bench/findings.md). An aggregate over an ordered, limited subquery keeps its order, which PostgREST's
      // reads rely on too; the paging tests hold the order to the cursor's.
      return `(
    SELECT coalesce(json_agg(r), '[]'::json)
    FROM (
      SELECT id, scope, scope_target_id, ${utcTimestamp("generated_at")} AS generated_at, headline${expand ? ", content AS report" : ""} FROM reports
      WHERE ${where.join(" AND ")}
      ORDER BY reports.generated_at DESC, reports.id DESC
      LIMIT ${limit + 1}
    ) r
  )`;
    },
    result: z.array(listedSummarySchema),
    // A prepared search would get a generic plan after a few runs: for a rare word it walks every report of
    // the organization in the list's order where the search index reads a handful (report-index.test.ts).
    planEachRunWith: (args) => byName(args).q !== undefined,
    toBody: (rows, _args, known): ReportPage => {
      rows ??= [];
      const reports: ReportSummary[] = [];
      let bytes = 0;
      for (const r of rows.slice(0, limit)) {
        const summary: ReportSummary = {
          ...r,
          generated_at: isoFromUtcJson(r.generated_at),
          headline: r.headline === null ? null : scrubContactDetails(r.headline, known),
          ...(r.report && { report: scrubContactDetails(r.report, known) }),
        };
        if (r.report) {
          // Whole reports: the page stops before the one that would take it past the bound (never before the first).
          bytes += Buffer.byteLength(JSON.stringify(summary));
          if (bytes > EXPANDED_PAGE_MAX_BYTES && reports.length > 0) return { reports, more: true, cut: true };
        }
        reports.push(summary);
      }
      return { reports, more: rows.length > limit };
    },
  });
  reportPageReads.set(limit, read);
  return read;
}

/** Every argument is a string or absent; ReportScope's values are strings too. */
type ReportPageRead = OrganizationRead<(string | undefined)[], ReportPage>;

const reportPageReads = new Map<number, ReportPageRead>();

/** What a page of the list is asked with: its size, its filters, and the previous page's last report, if any. */
export interface ReportPageQuery {
  limit: number;
  filters?: ReportFilters;
  /** The previous page's last report: the page starts after it. */
  after?: { generatedAt: string; id: string };
  /** "report": each summary brings its report's content too. */
  expand?: "report";
}

/** A page of the list: `limit` reports matching `filters`, after `after` (the previous page's last report). */
export function reportPage({ limit, filters = {}, after, expand }: ReportPageQuery) {
  const { since, until, ...rest } = filters;
  const page: PageArguments = {
    ...rest,
    since_day: since?.day,
    since_instant: since?.instant,
    until_day: until?.day,
    until_instant: until?.instant,
    after_generated_at: after?.generatedAt,
    after_id: after?.id,
    expand,
  };
  return reportPageRead(limit).with(...PAGE_ARGUMENTS.map((name) => page[name]));
}

/** One report of the organization; another organization's id is as unknown as a random one. */
export const reportRead = defineScrubbedRead({
  name: "report",
  sql: (organizationId, id: Placeholder<string>) => `(
    SELECT json_build_object(
      'id', r.id, 'scope', r.scope, 'scope_target_id', r.scope_target_id,
      'generated_at', ${utcTimestamp("r.generated_at")}, 'report', r.content
    )
    FROM reports r WHERE r.id = ${id}::uuid AND r.organization_id = ${organizationId}
  )`,
  result: reportSchema.extend({ generated_at: storedInstant }),
  toBody: (report, _args, known): Report => {
    if (!report) throw new ApiError("not_found", ERROR_MESSAGES.reportNotFound);
    return {
      ...report,
      generated_at: isoFromUtcJson(report.generated_at),
      report: scrubContactDetails(report.report, known),
    };
  },
});
