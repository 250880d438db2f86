import { CsvError, parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { boundedMessage, inputExcerpt } from "@/lib/text/input-excerpt";
import {
  daySchema,
  EMPTY_UPDATE,
  isEmptyUpdate,
  UPDATE_LIMITS,
  updateContentSchema,
  type UpdateContent,
} from "./updates";

// The files `sundown updates import` reads and the body POST /ingest/v1/updates takes, read into updates and
// absences with their places, before anyone is looked up (./update-import.ts does that, and the writing). Every
// problem is named by row and field, in the roster import's words (./member-import.ts).
//
// JSON: { "updates": [...], "absences": [...] } (either may be left out). An update: { "date", "email" | "member_id",
// "shipped": [string | {title}], "slipping": [string | {item, reason?, due?}], "blockers": [string | {description}],
// "kpis": [{name, value, unit?}], "note": string }; an absence: { "email" | "member_id", "from", "to" }.
//
// CSV: the header `date,email,section,text` (any order; `member_id` may stand for `email`), one item a row, with
// the optional columns `reason`, `due` (slipping), `value`, `unit` (kpi) and `until` (away). The sections are
// shipped, slipping, blocker, kpi and note, and `away` for an absence (date: its first day, until: its last, text
// ignored). All rows of one person and date make that person's whole update for the day.

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

/**
 * Reads a file (or request body): its rows, and the problems of those it could not read. A file that cannot be
 * read at all (not CSV or JSON, a bad header, over the limits) throws.
 */
export function readUpdateFile(text: string, format: UpdateFileFormat): UpdateFile {
  if (Buffer.byteLength(text) > UPDATE_IMPORT_LIMITS.maxBytes) {
    throw new UpdateImportError([{ row: "file", message: `larger than ${UPDATE_IMPORT_LIMITS.maxBytes} bytes` }]);
  }
  return format === "csv" ? readCsv(text) : readJson(text);
}

function tooManyRows(count: number, what: string): UpdateImportError {
  return new UpdateImportError([
    { row: "file", message: `${count} ${what} is more than ${UPDATE_IMPORT_LIMITS.maxRows}; split the file` },
  ]);
}

// --- CSV ------------------------------------------------------------------------------------------------------

const SECTIONS = ["shipped", "slipping", "blocker", "kpi", "note", "away"] as const;
type Section = (typeof SECTIONS)[number];

const COLUMNS = ["date", "email", "member_id", "section", "text", "reason", "due", "value", "unit", "until"] as const;
type Column = (typeof COLUMNS)[number];

/** The optional columns and the one section each belongs to: a value elsewhere is a misplaced cell. */
const COLUMN_SECTION: Partial<Record<Column, Section>> = {
  reason: "slipping",
  due: "slipping",
  value: "kpi",
  unit: "kpi",
  until: "away",
};

/** What the stored shape calls the text of each section's item, for the CSV's `text` column. */
const TEXT_FIELD = { shipped: "title", slipping: "item", blocker: "description", kpi: "name" } as const;

const itemSchemas = {
  shipped: updateContentSchema.shape.shipped.element,
  slipping: updateContentSchema.shape.slipping.element,
  blocker: updateContentSchema.shape.blockers.element,
  kpi: updateContentSchema.shape.kpis.element,
};

/** A KPI value as a spreadsheet writes it: 12, -3.5, 1e6; never 1,5 or 12%. */
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function readCsv(text: string): UpdateFile {
  let records: { record: string[]; info: { records: number } }[];
  try {
    // With `info`, each record comes with where it was read; the typings know records only as arrays.
    records = parseCsv(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new UpdateImportError([{ row: "file", message: `not readable as CSV: ${boundedMessage(error.message)}` }]);
  }
  const [head, ...body] = records;
  if (!head) throw new UpdateImportError([{ row: "file", message: "the file is empty" }]);
  if (body.length > UPDATE_IMPORT_LIMITS.maxRows) throw tooManyRows(body.length, "rows");
  const header = head.record.map((name) => name.toLowerCase());
  const problems: UpdateImportProblem[] = [];
  header.forEach((name, i) => {
    if (!(COLUMNS as readonly string[]).includes(name)) {
      problems.push({
        row: "row 1",
        field: inputExcerpt(head.record[i]!),
        message: `unknown column; the columns are ${COLUMNS.join(", ")}`,
      });
    } else if (header.indexOf(name) !== i) {
      problems.push({ row: "row 1", field: name, message: "this column is repeated" });
    }
  });
  for (const column of ["date", "section", "text"] as const) {
    if (!header.includes(column)) problems.push({ row: "row 1", field: column, message: "this column is required" });
  }
  if (!header.includes("email") && !header.includes("member_id")) {
    problems.push({ row: "row 1", field: "email", message: "this column (or member_id) is required" });
  }
  if (problems.length > 0) throw new UpdateImportError(problems);

  const file: UpdateFile = { updates: [], absences: [], problems };
  for (const { record, info } of body) {
    const row = `row ${info.records}`;
    if (record.length > header.length) {
      problems.push({ row, message: "more cells than the header has columns" });
      continue;
    }
    const cells: Partial<Record<Column, string>> = {};
    record.forEach((value, i) => {
      if (value !== "") cells[header[i] as Column] = value;
    });
    const read = readCsvRow(row, cells);
    if ("problems" in read) problems.push(...read.problems);
    else if ("absence" in read) file.absences.push(read.absence);
    else file.updates.push(read.update);
  }
  return file;
}

type RowRead = { update: UpdatePart } | { absence: AbsencePart } | { problems: UpdateImportProblem[] };

function readCsvRow(row: string, cells: Partial<Record<Column, string>>): RowRead {
  const problems: UpdateImportProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ row, field, message });
  const day = readDay(cells.date, "date", problem);
  const person = readPerson(cells.email, cells.member_id, problem);
  const section = cells.section?.toLowerCase();
  if (section === undefined || !(SECTIONS as readonly string[]).includes(section)) {
    problem("section", `${section === undefined ? "required" : "unknown section"}: use ${SECTIONS.join(", ")}`);
    return { problems };
  }
  for (const [column, owner] of Object.entries(COLUMN_SECTION)) {
    if (cells[column as Column] !== undefined && owner !== section) problem(column, `only for ${owner} rows`);
  }
  if (section === "away") {
    const lastDay = cells.until === undefined ? day : readDay(cells.until, "until", problem);
    if (day && lastDay) checkStretch(day, lastDay, "until", problem);
    if (problems.length > 0 || !day || !lastDay || !person) return { problems };
    return { absence: { row, person, firstDay: day, lastDay } };
  }
  const content = readCsvItem(section as Exclude<Section, "away">, cells, problem);
  if (problems.length > 0 || !day || !person || !content) return { problems };
  return { update: { row, day, person, content, whole: false, kpiField: "section" } };
}

/** One row's item as a day's update holding only it. */
function readCsvItem(
  section: Exclude<Section, "away">,
  cells: Partial<Record<Column, string>>,
  problem: (field: string, message: string) => void,
): UpdateContent | null {
  const text = cells.text ?? "";
  if (section === "note") {
    const note = updateContentSchema.shape.note.safeParse(text);
    if (!text) problem("text", "must not be empty");
    else if (!note.success) problem("text", note.error.issues[0]!.message);
    return note.success && text ? { ...EMPTY_UPDATE, note: note.data } : null;
  }
  const item: Record<string, unknown> = { [TEXT_FIELD[section]]: text };
  if (section === "slipping") Object.assign(item, { reason: cells.reason, due: cells.due });
  if (section === "kpi") {
    Object.assign(item, { unit: cells.unit });
    if (cells.value === undefined) problem("value", "required for a kpi row: the KPI's value, a number");
    else if (!NUMBER_TEXT.test(cells.value)) problem("value", "must be a number such as 12 or -3.5");
    else item.value = Number(cells.value);
  }
  const parsed = itemSchemas[section].safeParse(item);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      if (key === "value") continue; // named above, in the file's words
      problem(key === TEXT_FIELD[section] ? "text" : key, issue.message);
    }
    return null;
  }
  const sectionKey = section === "blocker" ? "blockers" : section === "kpi" ? "kpis" : section;
  return { ...EMPTY_UPDATE, [sectionKey]: [parsed.data] };
}

function readDay(value: unknown, field: string, problem: (field: string, message: string) => void): string | undefined {
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

function readPerson(
  email: unknown,
  memberId: unknown,
  problem: (field: string, message: string) => void,
): PersonRef | undefined {
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

function checkStretch(
  firstDay: string,
  lastDay: string,
  field: string,
  problem: (field: string, message: string) => void,
): void {
  const days = (Date.parse(lastDay) - Date.parse(firstDay)) / 86_400_000 + 1;
  if (days < 1) problem(field, `must be on or after ${firstDay}, the absence's first day`);
  else if (days > ABSENCE_MAX_DAYS) problem(field, `an absence is at most ${ABSENCE_MAX_DAYS} days; send several`);
}

// --- JSON -----------------------------------------------------------------------------------------------------

const BATCHES = ["updates", "absences"] as const;

/** An item given as its text alone, as the object the stored shape has. */
const asItem = (key: string) => (value: unknown) => (typeof value === "string" ? { [key]: value } : value);

const itemList = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .max(UPDATE_LIMITS.itemsMax, { error: `must hold at most ${UPDATE_LIMITS.itemsMax} items` })
    .optional()
    .default([]);

/** An update of a JSON file, as the stored shape once its items given as text are objects. */
const jsonUpdateSchema = z.strictObject({
  // Read by readDay and readPerson, in the CSV's words.
  date: z.unknown().optional(),
  email: z.unknown().optional(),
  member_id: z.unknown().optional(),
  shipped: itemList(z.preprocess(asItem("title"), itemSchemas.shipped)),
  slipping: itemList(z.preprocess(asItem("item"), itemSchemas.slipping)),
  blockers: itemList(z.preprocess(asItem("description"), itemSchemas.blocker)),
  kpis: itemList(itemSchemas.kpi),
  note: updateContentSchema.shape.note.optional().transform((note) => note || null),
});

const jsonAbsenceSchema = z.strictObject({
  email: z.unknown().optional(),
  member_id: z.unknown().optional(),
  from: z.unknown().optional(),
  to: z.unknown().optional(),
});

function readJson(text: string): UpdateFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new UpdateImportError([
      { row: "file", message: `not valid JSON: ${boundedMessage((error as Error).message)}` },
    ]);
  }
  if (!isPlainObject(parsed) || !BATCHES.some((batch) => Object.hasOwn(parsed as object, batch))) {
    throw new UpdateImportError([
      { row: "file", message: 'expected an object { "updates": [...], "absences": [...] }' },
    ]);
  }
  const problems: UpdateImportProblem[] = [];
  const unknown = Object.keys(parsed).filter((key) => !(BATCHES as readonly string[]).includes(key));
  if (unknown.length > 0) {
    const names = unknown.slice(0, 5).map((key) => inputExcerpt(key));
    problems.push({
      row: "file",
      field: names.join(", "),
      message: 'unknown field; a file carries "updates" and "absences"',
    });
  }
  const lists = { updates: [] as unknown[], absences: [] as unknown[] };
  for (const batch of BATCHES) {
    const list = parsed[batch];
    if (list === undefined) continue;
    if (Array.isArray(list)) lists[batch] = list;
    else problems.push({ row: "file", field: batch, message: "must be an array" });
  }
  const count = lists.updates.length + lists.absences.length;
  if (count > UPDATE_IMPORT_LIMITS.maxRows) throw tooManyRows(count, "updates and absences");
  if (problems.length > 0) throw new UpdateImportError(problems);
  if (count === 0) throw new UpdateImportError([{ row: "file", message: "no updates and no absences" }]);
  const file: UpdateFile = { updates: [], absences: [], problems };
  lists.updates.forEach((entry, i) => {
    const update = readJsonUpdate(`updates[${i}]`, entry, problems);
    if (update) file.updates.push(update);
  });
  lists.absences.forEach((entry, i) => {
    const absence = readJsonAbsence(`absences[${i}]`, entry, problems);
    if (absence) file.absences.push(absence);
  });
  return file;
}

function readJsonUpdate(row: string, entry: unknown, problems: UpdateImportProblem[]): UpdatePart | undefined {
  const problem = (field: string, message: string) => problems.push({ row, field, message });
  if (!isPlainObject(entry)) return void problems.push({ row, message: "expected an object with date, email…" });
  const day = readDay(entry.date, "date", problem);
  const person = readPerson(entry.email, entry.member_id, problem);
  // reportInput: each issue carries the value it is about, so that a missing value reads "required".
  const parsed = jsonUpdateSchema.safeParse(entry, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        const names = issue.keys.slice(0, 5).map((key) => inputExcerpt(key));
        problem(
          names.join(", "),
          "unknown field; the fields are date, email, member_id, shipped, slipping, blockers, kpis, note",
        );
      } else problem(fieldPath(issue.path), describe(issue));
    }
    return undefined;
  }
  const { shipped, slipping, blockers, kpis, note } = parsed.data;
  const content: UpdateContent = { shipped, slipping, blockers, kpis, note };
  if (isEmptyUpdate(content)) {
    problem("note", "the update says nothing: give at least one of shipped, slipping, blockers, kpis, note");
  }
  if (!day || !person || problems.some((p) => p.row === row)) return undefined;
  return { row, day, person, content, whole: true, kpiField: "kpis" };
}

function readJsonAbsence(row: string, entry: unknown, problems: UpdateImportProblem[]): AbsencePart | undefined {
  const problem = (field: string, message: string) => problems.push({ row, field, message });
  if (!isPlainObject(entry)) return void problems.push({ row, message: "expected an object with email, from, to" });
  const unknown = jsonAbsenceSchema
    .safeParse(entry)
    .error?.issues.flatMap((i) => (i.code === "unrecognized_keys" ? i.keys : []));
  if (unknown?.length) {
    problem(
      unknown
        .slice(0, 5)
        .map((key) => inputExcerpt(key))
        .join(", "),
      "unknown field; the fields are email, member_id, from, to",
    );
  }
  const person = readPerson(entry.email, entry.member_id, problem);
  const firstDay = readDay(entry.from, "from", problem);
  const lastDay = readDay(entry.to, "to", problem);
  if (firstDay && lastDay) checkStretch(firstDay, lastDay, "to", problem);
  if (!person || !firstDay || !lastDay || problems.some((p) => p.row === row)) return undefined;
  return { row, person, firstDay, lastDay };
}

/** `slipping[1].due` */
function fieldPath(path: PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

/** A check's message in the file's words: zod's own default messages lose their "Invalid input:" prefix. */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.input === undefined) return `required (expected ${issue.expected})`;
  return issue.message.replace(/^Invalid input: /, "");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
