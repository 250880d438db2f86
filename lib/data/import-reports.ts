import { writeReportItems } from "./report-items";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { reportContentSchema, reportScopeSchema } from "@/lib/schemas/reports";
import { recordActivities, recordActivity, type Actor } from "./activity";
import type { OrganizationRef } from "./organizations";
import { REPORT_SUBJECT, reportSubject } from "./report-subject";
import { boundedMessage, inputExcerpt } from "@/lib/text/input-excerpt";
import { withoutInvisibles } from "@/lib/text/invisible-characters";
import type { KnownContacts } from "./known-contact-matcher";
import { loadKnownContacts } from "./known-contacts";
import { findContentProblems } from "./report-content-rules";
import {
  judgeImport,
  lockOrganizationImports,
  matchStoredReports,
  NO_TARGET,
  type ImportOutcome,
} from "./report-identity";
import { reportSearchText, SEARCH_TEXT_VERSION } from "./report-search-text";
import { refreshReportStatistics } from "./report-statistics";
import { recordReportEvents } from "./webhook-outbox";
import { INSTANT_RANGE_TEXT, isInInstantRange } from "@/lib/schemas/instant";

// `sundown reports import` and POST /ingest/v1/reports: reports validated whole before anything is written, then
// written in one transaction, so a bad batch never leaves half an import behind. One code path for both.
//
// Format: an array of reports, or { "reports": [...] } (the ingest endpoint also takes one report alone). Each report:
//   { "id"?: uuid, "scope": "org"|"lead"|"member", "scope_target_id"?: uuid|null,
//     "generated_at": ISO 8601 with a time zone, "report": ReportContent }
//
// Idempotent: a report is identified by its id, or by its scope, target and generated_at (./report-identity.ts);
// the same report again changes nothing, and one that differs from its stored self is refused unless replacing.

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
  /**
   * Set when the report itself is fine but a stored report stands in its way: "differs" (it has other content;
   * replacing is allowed), "collides" (no replacing helps). Unset: the batch is invalid.
   */
  conflict?: "differs" | "collides";
}

/** How a surface names what it was sent and how replacing is asked for there, for the refusal's words. */
export interface ImportWording {
  /** "The import file", "The request". */
  subject: string;
  /** How to ask for replacing, e.g. "run the import again with --replace". */
  replaceHint: string;
}

const FILE_WORDING: ImportWording = {
  subject: "The import file",
  replaceHint: "run the import again with --replace",
};

export class ImportError extends Error {
  constructor(readonly issues: ImportIssue[]) {
    super(formatImportIssues(issues, FILE_WORDING));
    this.name = "ImportError";
  }

  /** True when every problem is a stored report standing in the way (HTTP's 409), none an invalid report (400). */
  get onlyConflicts(): boolean {
    return this.issues.every((issue) => issue.conflict !== undefined);
  }
}

/** The refusal as a person reads it: a headline, up to 20 problems with their places, and what to do. */
export function formatImportIssues(issues: ImportIssue[], { subject, replaceHint }: ImportWording): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((i) => `  ${i.path ? `${i.path}: ` : ""}${i.message}`);
  const more = issues.length > MAX_LISTED_ISSUES ? [`  …and ${issues.length - MAX_LISTED_ISSUES} more`] : [];
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  const headline = issues.every((i) => i.conflict)
    ? `${subject} conflicts with stored reports (${count}); nothing was imported.`
    : `${subject} is invalid (${count}); nothing was imported.`;
  const hint = issues.some((i) => i.conflict === "differs")
    ? [`To update the stored reports that differ, ${replaceHint}.`]
    : [];
  return [headline, ...listed, ...more, ...hint].join("\n");
}

/** One report of the import format (the ingest endpoint's OpenAPI document describes its body with it). */
export const importReportSchema = z
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
  /** Where it was in what was sent, for messages: "" for a report sent alone; absent, `reports[<index>]`. */
  place?: string;
  id?: string;
  scope: "org" | "lead" | "member";
  scope_target_id: string | null;
  generated_at: string;
  report: z.infer<typeof reportContentSchema>;
}

export interface ImportResult {
  added: number;
  unchanged: number;
  replaced: number;
  /** Each report sent, in order: its id (a new one for an added report without one) and what became of it. */
  reports: { id: string; outcome: ImportOutcome }[];
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

/**
 * Validates a parsed file (or request body) as a whole and returns its reports, or throws every problem found.
 * `single`: a lone report object is taken too, its problems named from its own fields (the ingest endpoint).
 */
export function validateImportReports(value: unknown, { single = false }: { single?: boolean } = {}): ImportReport[] {
  const alone = single && isPlainObject(value) && !Object.hasOwn(value, "reports");
  const entries = alone
    ? [value]
    : Array.isArray(value)
      ? value
      : isPlainObject(value) && Object.keys(value).length === 1 && Array.isArray(value.reports)
        ? value.reports
        : undefined;
  if (!entries) {
    const expected = single ? "one report, an array of reports" : "an array of reports";
    throw new ImportError([{ path: "", message: `expected ${expected} or an object { "reports": [...] }` }]);
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
  const placeOf = (index: number): PropertyKey[] => (alone ? [] : ["reports", index]);
  const issues: ImportIssue[] = [];
  const reports: ImportReport[] = [];
  const firstIndexOfId = new Map<string, number>();
  const firstIndexOfKey = new Map<string, number>();
  entries.forEach((entry, index) => {
    // reportInput: each issue carries the value it is about, so a message can say what was received.
    const result = importReportSchema.safeParse(entry, { reportInput: true });
    const contentProblems = isPlainObject(entry) ? findContentProblems(entry.report) : [];
    if (!result.success || contentProblems.length > 0) {
      for (const issue of result.error?.issues ?? []) {
        issues.push({ path: formatPath([...placeOf(index), ...issue.path]), message: describeIssue(issue) });
      }
      for (const problem of contentProblems) {
        issues.push({ path: formatPath([...placeOf(index), "report", ...problem.path]), message: problem.message });
      }
      return;
    }
    const { id, scope, scope_target_id, generated_at, report } = result.data;
    const place = formatPath(placeOf(index));
    const normalizedId = id?.toLowerCase();
    const target = scope_target_id?.toLowerCase() ?? null;
    const instant = new Date(generated_at).toISOString();
    if (normalizedId) {
      const first = firstIndexOfId.get(normalizedId);
      if (first !== undefined) {
        issues.push({ path: `${place}.id`, message: `duplicate of reports[${first}].id` });
        return;
      }
      firstIndexOfId.set(normalizedId, index);
    }
    // A report is also identified by these three, so one batch cannot hold two reports that share them.
    const key = `${scope}|${target ?? NO_TARGET}|${instant}`;
    const firstWithKey = firstIndexOfKey.get(key);
    if (firstWithKey !== undefined) {
      issues.push({
        path: place,
        message: `same scope, scope_target_id and generated_at as reports[${firstWithKey}]: one report, sent twice`,
      });
    } else firstIndexOfKey.set(key, index);
    reports.push({
      place,
      ...(normalizedId ? { id: normalizedId } : {}),
      scope,
      scope_target_id: target,
      generated_at: instant,
      // Stored without invisible characters; checked above to lose nothing else (no two keys become one).
      report: readableContent(report),
    });
  });
  if (issues.length > 0) throw new ImportError(issues);
  return reports;
}

type Transaction = Prisma.TransactionClient;

/**
 * Writes validated reports into an organization, all or nothing: each is added, left unchanged (the same report is
 * stored already) or, with `replace`, replaced (stored with other content). Checks that need the database (targets
 * are members of this organization, what is stored under each report's identity) run inside the same transaction,
 * under the organization's import lock. Added reports are announced as report.published and replaced ones as
 * report.updated, in the same transaction; unchanged ones are not announced again. An import that changed
 * something writes its line in the activity trail (`actor`: the CLI, the ingest token, the signed-in user), and one
 * more per replaced report.
 */
export async function importReports(
  organization: OrganizationRef,
  reports: ImportReport[],
  { replace = false, actor }: { replace?: boolean; actor: Actor },
): Promise<ImportResult> {
  const db = await getDb();
  const result = await db.$transaction(
    async (tx) => {
      await lockOrganizationImports(tx, organization.id);
      const outcomes = await judgeAgainstStored(tx, organization, reports, replace);
      const contacts = await loadKnownContacts(tx, organization.id);
      // Ids are chosen here rather than by the database, so that each report's event can name it.
      const written = outcomes.map((o) => ({ id: o.id ?? randomUUID(), outcome: o.outcome }));
      const added = reports.flatMap((r, i) => (written[i]!.outcome === "added" ? [{ ...r, id: written[i]!.id }] : []));
      const replaced = reports.flatMap((r, i) =>
        written[i]!.outcome === "replaced" ? [{ ...r, id: written[i]!.id }] : [],
      );
      await insertReports(tx, organization.id, added, contacts);
      await replaceReports(tx, organization.id, replaced, contacts);
      const changed = written.filter((w) => w.outcome !== "unchanged").map((w) => w.id);
      await writeReportItems((sql, ...values) => tx.$executeRawUnsafe(sql, ...values), organization.id, changed);
      await recordImportActivity(tx, organization.id, actor, written, replaced);
      return written;
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
  const count = (outcome: ImportOutcome) => result.filter((r) => r.outcome === outcome).length;
  // A large import changes what the planner should choose for searches; refresh its view when it grew.
  if (count("added") > 0) await refreshReportStatistics();
  return { added: count("added"), unchanged: count("unchanged"), replaced: count("replaced"), reports: result };
}

/**
 * What importing these reports would do now, without writing anything (Settings → Reports' preview): the same
 * checks against what is stored as importReports makes, refused with the same ImportError. Not under the import
 * lock: a preview only advises, and the import checks again.
 */
export async function previewImport(
  organization: OrganizationRef,
  reports: ImportReport[],
  { replace = false }: { replace?: boolean } = {},
): Promise<Omit<ImportResult, "reports">> {
  const db = await getDb();
  const outcomes = await db.$transaction((tx) => judgeAgainstStored(tx, organization, reports, replace));
  const count = (outcome: ImportOutcome) => outcomes.filter((o) => o.outcome === outcome).length;
  return { added: count("added"), unchanged: count("unchanged"), replaced: count("replaced") };
}

/**
 * Each report's outcome against what is stored (targets that are members of this organization, the stored report
 * under each one's identity), or every problem found as one ImportError.
 */
async function judgeAgainstStored(
  tx: Transaction,
  organization: OrganizationRef,
  reports: ImportReport[],
  replace: boolean,
) {
  const placeOf = (index: number) => reports[index]!.place ?? `reports[${index}]`;
  const issues: (ImportIssue & { index: number })[] = await targetIssues(tx, organization, reports, placeOf);
  const matches = await matchStoredReports(tx, organization.id, reports);
  const { outcomes, problems } = judgeImport(reports, matches, { replace, placeOf });
  for (const { index, field, message, kind } of problems) {
    issues.push({ index, path: fieldPath(placeOf(index), field), message, conflict: kind });
  }
  if (issues.length > 0) {
    throw new ImportError(issues.sort((a, b) => a.index - b.index).map(({ index: _, ...issue }) => issue));
  }
  return outcomes;
}

/** A field's path under a report's place: `reports[3].id`, or `id` for a report sent alone. */
function fieldPath(place: string, field: string): string {
  return place && field ? `${place}.${field}` : place || field;
}

/** Targets that are not members of this organization, with the index of the report naming each. */
async function targetIssues(
  tx: Transaction,
  organization: OrganizationRef,
  reports: ImportReport[],
  placeOf: (index: number) => string,
): Promise<(ImportIssue & { index: number })[]> {
  const targetIds = [...new Set(reports.flatMap((r) => (r.scope_target_id ? [r.scope_target_id] : [])))];
  if (targetIds.length === 0) return [];
  const members = await tx.member.findMany({
    where: { organizationId: organization.id, id: { in: targetIds } },
    select: { id: true },
  });
  const known = new Set(members.map((m) => m.id));
  return reports.flatMap((r, index) =>
    r.scope_target_id && !known.has(r.scope_target_id)
      ? [
          {
            index,
            path: fieldPath(placeOf(index), "scope_target_id"),
            message: `no member with this id in organization ${organization.slug}`,
          },
        ]
      : [],
  );
}

type StoredRow = ImportReport & { id: string };

/** The rows as the statements read them: one JSON parameter, never spliced into the SQL. */
function rowsJson(reports: StoredRow[], contacts: KnownContacts): string {
  return JSON.stringify(
    reports.map((r) => ({
      id: r.id,
      scope: r.scope,
      scope_target_id: r.scope_target_id,
      generated_at: r.generated_at,
      report: r.report,
      search_text: reportSearchText(r.report, contacts),
    })),
  );
}

// One set-based statement per chunk rather than Prisma's createMany, which was far slower for an import
// (bench/findings.md).
async function insertReports(tx: Transaction, organizationId: string, reports: StoredRow[], contacts: KnownContacts) {
  for (let start = 0; start < reports.length; start += INSERT_CHUNK) {
    const chunk = reports.slice(start, start + INSERT_CHUNK);
    await tx.$executeRaw`
      INSERT INTO "reports" ("id", "organization_id", "scope", "scope_target_id", "generated_at", "headline", "content", "search_text", "search_text_version")
      SELECT r.id, ${organizationId}::uuid, r.scope::"report_scope", r.scope_target_id,
             r.generated_at, r.report->>'headline', r.report, r.search_text, ${SEARCH_TEXT_VERSION}::int
      FROM jsonb_to_recordset(${rowsJson(chunk, contacts)}::jsonb)
        AS r(id uuid, scope text, scope_target_id uuid, generated_at timestamptz, report jsonb, search_text text)`;
    // The outbox, in the same transaction: report.published for each report, when an endpoint wants it.
    await recordReportEvents(
      tx,
      organizationId,
      "report.published",
      chunk.map((r) => r.id),
    );
  }
}

/** A replaced report keeps its id and takes everything else from the batch. */
async function replaceReports(tx: Transaction, organizationId: string, reports: StoredRow[], contacts: KnownContacts) {
  for (let start = 0; start < reports.length; start += INSERT_CHUNK) {
    const chunk = reports.slice(start, start + INSERT_CHUNK);
    await tx.$executeRaw`
      UPDATE "reports" AS s
      SET "scope" = r.scope::"report_scope", "scope_target_id" = r.scope_target_id, "generated_at" = r.generated_at,
          "headline" = r.report->>'headline', "content" = r.report, "search_text" = r.search_text,
          "search_text_version" = ${SEARCH_TEXT_VERSION}::int
      FROM jsonb_to_recordset(${rowsJson(chunk, contacts)}::jsonb)
        AS r(id uuid, scope text, scope_target_id uuid, generated_at timestamptz, report jsonb, search_text text)
      WHERE s."id" = r.id AND s."organization_id" = ${organizationId}::uuid`;
    // Announced once: a replacement sent again finds the same content stored, is unchanged, and sends nothing.
    await recordReportEvents(
      tx,
      organizationId,
      "report.updated",
      chunk.map((r) => r.id),
    );
  }
}

/** The import's line (its counts), and a line per replaced report; nothing for an import that changed nothing. */
async function recordImportActivity(
  tx: Transaction,
  organizationId: string,
  actor: Actor,
  written: { outcome: ImportOutcome }[],
  replaced: StoredRow[],
) {
  const count = (outcome: ImportOutcome) => written.filter((r) => r.outcome === outcome).length;
  const detail = { added: count("added"), unchanged: count("unchanged"), replaced: count("replaced") };
  if (detail.added === 0 && detail.replaced === 0) return;
  await recordActivity(tx, organizationId, actor, {
    subject: { type: REPORT_SUBJECT, label: written.length === 1 ? "1 report" : `${written.length} reports` },
    action: "imported",
    detail,
  });
  await recordActivities(
    tx,
    organizationId,
    actor,
    replaced.map((r) => ({ subject: reportSubject(r), action: "replaced" })),
  );
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
