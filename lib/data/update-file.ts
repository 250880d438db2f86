import { UUID_SHAPE } from "@/lib/schemas/common";
import { daySchema, updateContentSchema, type UpdateContent } from "./updates";

// The files `sundown updates import` reads and the body POST /ingest/v1/updates takes: what reading one gives
// (updates and absences with their places, before anyone is looked up), its problems, and the field rules both
// formats share. ./update-csv.ts and ./update-json.ts read the two formats; ./update-import.ts looks the people up
// and writes. Every problem is named by row and field, in the roster import's words (./member-import.ts). The
// format as people read it: docs/updates.md.

export const UPDATE_IMPORT_LIMITS = { maxRows: 10_000, maxBytes: 5 * 1024 * 1024 } as const;

/** The first day an update or absence may name. */
const FIRST_DAY = "1970-01-01";

/** The longest absence one entry may give: a year; longer ones are sent as several. */
const ABSENCE_MAX_DAYS = 366;

/** One problem of a file: where (a row of a CSV, counting the header as row 1; a JSON entry), which field, what. */
export interface UpdateImportProblem {
  row: string;
  field?: string;
  message: string;
}

export class UpdateImportError extends Error {
  constructor(readonly problems: UpdateImportProblem[]) {
    super(formatUpdateImportProblems(problems));
    this.name = "UpdateImportError";
  }
}

const MAX_LISTED = 20;

/** The refusal as a person reads it; `subject` is what was sent ("The updates file", "The request"). */
export function formatUpdateImportProblems(problems: UpdateImportProblem[], subject = "The updates file"): string {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  const listed = problems.slice(0, MAX_LISTED).map((p) => `  ${p.row}${p.field ? `, ${p.field}` : ""}: ${p.message}`);
  const more = problems.length > MAX_LISTED ? [`  …and ${problems.length - MAX_LISTED} more`] : [];
  return [`${subject} is invalid (${count}); nothing was imported.`, ...listed, ...more].join("\n");
}

export type UpdateFileFormat = "csv" | "json";

/** What the file's name (or its first character, for standard input) says it is. */
export function updateFileFormat(name: string | null, text: string): UpdateFileFormat {
  if (name && /\.json$/i.test(name)) return "json";
  if (name && /\.csv$/i.test(name)) return "csv";
  return /^\s*[[{]/.test(text) ? "json" : "csv";
}

/** Who an entry names, as written, and the field that names them (for a problem about it). */
export interface PersonRef {
  field: "email" | "member_id";
  email?: string;
  memberId?: string;
}

/**
 * An update as read. A CSV row is one item of its person's day (`whole` false: the rows of a person and date are
 * put together); a JSON entry is the whole day (`whole` true: the same person and date twice is a problem).
 */
export interface UpdatePart {
  row: string;
  day: string;
  person: PersonRef;
  content: UpdateContent;
  whole: boolean;
  /** Where the KPI values are, for the problem when the person may not report them. */
  kpiField: string;
}

export interface AbsencePart {
  row: string;
  person: PersonRef;
  firstDay: string;
  lastDay: string;
}

export interface UpdateFile {
  updates: UpdatePart[];
  absences: AbsencePart[];
  /**
   * The problems of its rows, the rest of which are read: the import adds what only the roster can tell (an
   * unknown person, KPI values from a member) about the rows that are fine, and refuses the file naming them all.
   */
  problems: UpdateImportProblem[];
}

export function tooManyRows(count: number, what: string): UpdateImportError {
  return new UpdateImportError([
    { row: "file", message: `${count} ${what} is more than ${UPDATE_IMPORT_LIMITS.maxRows}; split the file` },
  ]);
}

/** The stored shape's item of each CSV section (JSON names them by the stored shape's sections). */
export const updateItemSchemas = {
  shipped: updateContentSchema.shape.shipped.element,
  slipping: updateContentSchema.shape.slipping.element,
  blocker: updateContentSchema.shape.blockers.element,
  kpi: updateContentSchema.shape.kpis.element,
};

/** Names a problem of the row being read by its field. */
export type ProblemAt = (field: string, message: string) => void;

/** A day as the file gives it (required), or undefined with its problem named. */
export function readDay(value: unknown, field: string, problem: ProblemAt): string | undefined {
  if (value === undefined || value === null || value === "") {
    problem(field, "required: a date as YYYY-MM-DD");
    return undefined;
  }
  const parsed = daySchema.safeParse(value);
  if (!parsed.success) problem(field, parsed.error.issues[0]!.message);
  // Before it no team wrote an update; a year 1 typo would have generation walk two thousand years of days.
  else if (parsed.data < FIRST_DAY) problem(field, `must be ${FIRST_DAY} or later`);
  else return parsed.data;
  return undefined;
}

/** The person a row names, by e-mail or member id (one of them, not both), or undefined with its problem named. */
export function readPerson(email: unknown, memberId: unknown, problem: ProblemAt): PersonRef | undefined {
  if (email !== undefined && email !== null && email !== "") {
    if (typeof email !== "string") return void problem("email", "must be a string");
    if (memberId !== undefined && memberId !== null && memberId !== "") {
      return void problem("member_id", "give the person by email or by member_id, not both");
    }
    return { field: "email", email: email.trim() };
  }
  if (memberId !== undefined && memberId !== null && memberId !== "") {
    if (typeof memberId !== "string" || !UUID_SHAPE.test(memberId.trim())) {
      return void problem("member_id", "must be a member id (a UUID), as `sundown members list` shows it");
    }
    return { field: "member_id", memberId: memberId.trim().toLowerCase() };
  }
  return void problem("email", "required: the person, by email (or member_id)");
}

/** An absence's last day against its first: not before it, at most a year after. */
export function checkStretch(firstDay: string, lastDay: string, field: string, problem: ProblemAt): void {
  const days = (Date.parse(lastDay) - Date.parse(firstDay)) / 86_400_000 + 1;
  if (days < 1) problem(field, `must be on or after ${firstDay}, the absence's first day`);
  else if (days > ABSENCE_MAX_DAYS) problem(field, `an absence is at most ${ABSENCE_MAX_DAYS} days; send several`);
}
