import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { reportContentSchema, reportScopeSchema } from "@/lib/schemas/reports";
import type { OrganizationRef } from "./organizations";
import { boundedMessage, inputExcerpt } from "./input-excerpt";
import { withoutInvisibles } from "./invisible-characters";
import { loadKnownContacts } from "./known-contacts";
import { findContentProblems } from "./report-content-rules";
import { reportSearchText, SEARCH_TEXT_VERSION } from "./report-search-text";
import { refreshReportStatistics } from "./report-statistics";
import { recordReportsPublished } from "./webhook-outbox";
import { INSTANT_RANGE_TEXT, isInInstantRange } from "@/lib/schemas/instant";

// `sundown reports import`: a JSON file of reports, validated whole before anything is written,
// then written in one transaction, so a bad file never leaves half an import behind.
//
// File format: an array of reports, or { "reports": [...] }. Each report:
//   { "id"?: uuid, "scope": "org"|"lead"|"member", "scope_target_id"?: uuid|null,
//     "generated_at": ISO 8601 with a time zone, "report": ReportContent }

export const IMPORT_LIMITS = { maxReports: 10_000, maxBytes: 20 * 1024 * 1024 } as const;

// From the Unix epoch, before which no tool wrote a report and where JavaScript, PostgreSQL and ISO 8601 agree on the
// calendar (no year 0, no BC), to the last instant ISO 8601 writes with a four-digit year, as the API prints it.

const INSERT_CHUNK = 1_000;

/** Problems listed in one message; the rest are counted. */
const MAX_LISTED_ISSUES = 20;
/** Unknown fields of one report named in its problem; the rest are counted. */
const MAX_LISTED_KEYS = 5;

export interface ImportIssue {
  /** Where in the file, e.g. `reports[3].report.shipped`; empty for the whole file. */
  path: string;
  message: string;
}

export class ImportError extends Error {
  constructor(readonly issues: ImportIssue[]) {
    super(formatImportIssues(issues));
    this.name = "ImportError";
  }
}

function formatImportIssues(issues: ImportIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((i) => `  ${i.path ? `${i.path}: ` : ""}${i.message}`);
  const more = issues.length > MAX_LISTED_ISSUES ? [`  …and ${issues.length - MAX_LISTED_ISSUES} more`] : [];
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return [`The import file is invalid (${count}); nothing was imported.`, ...listed, ...more].join("\n");
}

const importReportSchema = z
  .strictObject({
    id: z.uuid().optional(),
    scope: reportScopeSchema,
    scope_target_id: z.uuid().nullable().optional(),
    // The ISO pattern also checks the calendar: February 30 is refused, not rolled over into March.
    generated_at: z.iso.datetime({ offset: true }).refine(isWithinGeneratedAtRange, {
      message: `must lie ${INSTANT_RANGE_TEXT}`,
    }),
    report: reportContentSchema,
  })
  .superRefine((entry, ctx) => {
    const target = entry.scope_target_id ?? null;
    if (entry.scope === "org" && target !== null) {
      ctx.addIssue({ code: "custom", path: ["scope_target_id"], message: 'must be null for scope "org"' });
    }
    if (entry.scope !== "org" && target === null) {
      ctx.addIssue({
        code: "custom",
        path: ["scope_target_id"],
        message: `required for scope "${entry.scope}": the id of a member of the organization`,
      });
    }
  });

export interface ImportReport {
  id?: string;
  scope: "org" | "lead" | "member";
  scope_target_id: string | null;
  generated_at: string;
  report: z.infer<typeof reportContentSchema>;
}

/** Parses the file's text; a syntax error names its line and column. */
export function parseImportText(text: string): unknown {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch (error) {
    const { line, column } = jsonErrorLocation(source, (error as Error).message);
    const reason = (error as Error).message
      .replace(/\s*(in JSON )?at position \d+.*$/s, "")
      .replace(/\s*\(line \d+ column \d+\)/, "");
    // The parser's reason quotes the text around the error: escaped and bounded, as every quoted value is.
    throw new ImportError([
      { path: "", message: `not valid JSON at line ${line}, column ${column}: ${boundedMessage(reason)}` },
    ]);
  }
}

function jsonErrorLocation(source: string, message: string): { line: number; column: number } {
  const explicit = /line (\d+) column (\d+)/.exec(message);
  if (explicit) return { line: Number(explicit[1]), column: Number(explicit[2]) };
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : source.length;
  const before = source.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** Validates a parsed file as a whole and returns its reports, or throws every problem found. */
export function validateImportReports(value: unknown): ImportReport[] {
  const entries = Array.isArray(value)
    ? value
    : isPlainObject(value) && Object.keys(value).length === 1 && Array.isArray(value.reports)
      ? value.reports
      : undefined;
  if (!entries) {
    throw new ImportError([{ path: "", message: 'expected an array of reports or an object { "reports": [...] }' }]);
  }
  if (entries.length === 0) throw new ImportError([{ path: "reports", message: "the file contains no reports" }]);
  if (entries.length > IMPORT_LIMITS.maxReports) {
    throw new ImportError([
      {
        path: "reports",
        message: `${entries.length} reports is more than ${IMPORT_LIMITS.maxReports} in one import; split the file`,
      },
    ]);
  }
  const issues: ImportIssue[] = [];
  const reports: ImportReport[] = [];
  const firstIndexOfId = new Map<string, number>();
  entries.forEach((entry, index) => {
    // reportInput: each issue carries the value it is about, so a message can say what was received.
    const result = importReportSchema.safeParse(entry, { reportInput: true });
    const contentProblems = isPlainObject(entry) ? findContentProblems(entry.report) : [];
    if (!result.success || contentProblems.length > 0) {
      for (const issue of result.error?.issues ?? []) {
        issues.push({ path: formatPath(["reports", index, ...issue.path]), message: describeIssue(issue) });
      }
      for (const problem of contentProblems) {
        issues.push({ path: formatPath(["reports", index, "report", ...problem.path]), message: problem.message });
      }
      return;
    }
    const { id, scope, scope_target_id, generated_at, report } = result.data;
    const normalizedId = id?.toLowerCase();
    if (normalizedId) {
      const first = firstIndexOfId.get(normalizedId);
      if (first !== undefined)
        issues.push({ path: `reports[${index}].id`, message: `duplicate of reports[${first}].id` });
      else firstIndexOfId.set(normalizedId, index);
    }
    reports.push({
      ...(normalizedId ? { id: normalizedId } : {}),
      scope,
      scope_target_id: scope_target_id?.toLowerCase() ?? null,
      generated_at: new Date(generated_at).toISOString(),
      // Stored without invisible characters; checked above to lose nothing else (no two keys become one).
      report: readableContent(report),
    });
  });
  if (issues.length > 0) throw new ImportError(issues);
  return reports;
}

/**
 * Writes validated reports into an organization, all or nothing. Checks that need the database
 * (targets are members of this organization, ids are not taken) run inside the same transaction.
 */
export async function importReports(
  organization: OrganizationRef,
  reports: ImportReport[],
): Promise<{ imported: number }> {
  const db = await getDb();
  const result = await db.$transaction(
    async (tx) => {
      const issues: ImportIssue[] = [];
      const targetIds = [...new Set(reports.flatMap((r) => (r.scope_target_id ? [r.scope_target_id] : [])))];
      const members = targetIds.length
        ? await tx.member.findMany({
            where: { organizationId: organization.id, id: { in: targetIds } },
            select: { id: true },
          })
        : [];
      const known = new Set(members.map((m) => m.id));
      reports.forEach((r, index) => {
        if (r.scope_target_id && !known.has(r.scope_target_id)) {
          issues.push({
            path: `reports[${index}].scope_target_id`,
            message: `no member with this id in organization ${organization.slug}`,
          });
        }
      });
      // Report ids are unique across organizations (primary key), so this check is deliberately not
      // scoped by organization: it only tells the operator which ids cannot be used.
      const ids = reports.flatMap((r) => (r.id ? [r.id] : []));
      const taken = ids.length
        ? new Set((await tx.report.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id))
        : new Set<string>();
      reports.forEach((r, index) => {
        if (r.id && taken.has(r.id))
          issues.push({ path: `reports[${index}].id`, message: "a report with this id already exists" });
      });
      if (issues.length > 0) throw new ImportError(issues);

      // One set-based statement per chunk rather than Prisma's createMany, which was far slower for an import
      // (bench/findings.md). Values travel as one JSON parameter, never spliced into the SQL.
      const contacts = await loadKnownContacts(tx, organization.id);
      for (let start = 0; start < reports.length; start += INSERT_CHUNK) {
        // Ids are chosen here rather than by the database, so that each report's event can name it.
        const rows = reports.slice(start, start + INSERT_CHUNK).map((r) => ({
          id: r.id ?? randomUUID(),
          scope: r.scope,
          scope_target_id: r.scope_target_id,
          generated_at: r.generated_at,
          report: r.report,
          search_text: reportSearchText(r.report, contacts),
        }));
        await tx.$executeRaw`
          INSERT INTO "reports" ("id", "organization_id", "scope", "scope_target_id", "generated_at", "headline", "content", "search_text", "search_text_version")
          SELECT r.id, ${organization.id}::uuid, r.scope::"report_scope", r.scope_target_id,
                 r.generated_at, r.report->>'headline', r.report, r.search_text, ${SEARCH_TEXT_VERSION}::int
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS r(id uuid, scope text, scope_target_id uuid, generated_at timestamptz, report jsonb, search_text text)`;
        // The outbox, in the same transaction: report.published for each report, when an endpoint wants it.
        await recordReportsPublished(
          tx,
          organization.id,
          rows.map((r) => r.id),
        );
      }
      return { imported: reports.length };
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
  // A large import changes what the planner should choose for searches; refresh its view when it grew.
  await refreshReportStatistics();
  return result;
}

/** True for an instant inside the range; a timestamp that is no instant at all is the format check's to report. */
function isWithinGeneratedAtRange(timestamp: string): boolean {
  const instant = new Date(timestamp).getTime();
  return Number.isNaN(instant) || isInInstantRange(instant);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The content with its invisible characters removed from every string and key. Content that gets here has passed
 * findContentProblems: at most 32 levels deep, so recursion is safe, and no two keys of an object become one.
 */
function readableContent<T>(value: T): T {
  if (typeof value === "string") return withoutInvisibles(value) as T;
  if (Array.isArray(value)) return value.map(readableContent) as T;
  if (value === null || typeof value !== "object") return value;
  const readable: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // defineProperty: a key named __proto__ stays a member, as JSON.parse made it.
    Object.defineProperty(readable, withoutInvisibles(key), {
      value: readableContent(inner),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return readable as T;
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((part, i) => {
      if (typeof part === "number") return `[${part}]`;
      const key = String(part);
      if (/^[A-Za-z_$][\w$]*$/.test(key)) return i === 0 ? key : `.${key}`;
      return `[${inputExcerpt(key)}]`;
    })
    .join("");
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? `required (expected ${issue.expected})`
        : `expected ${issue.expected}, received ${typeName(issue.input)}`;
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys": {
      const listed = issue.keys.slice(0, MAX_LISTED_KEYS).map((key) => inputExcerpt(key));
      const more = issue.keys.length > MAX_LISTED_KEYS ? ` and ${issue.keys.length - MAX_LISTED_KEYS} more` : "";
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${listed.join(", ")}${more}`;
    }
    case "invalid_format":
      if (issue.format === "datetime")
        return "expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T18:30:00Z";
      if (issue.format === "uuid") return "expected a UUID";
      return `expected ${issue.format}`;
    default:
      return issue.message;
  }
}
