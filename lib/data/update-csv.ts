import { inputExcerpt } from "@/lib/text/input-excerpt";
import { readCsvRows } from "./csv-reader";
import {
  checkStretch,
  readDay,
  readPerson,
  tooManyRows,
  UPDATE_IMPORT_LIMITS,
  updateItemSchemas,
  UpdateImportError,
  type AbsencePart,
  type ProblemAt,
  type UpdateFile,
  type UpdateImportProblem,
  type UpdatePart,
} from "./update-file";
import { EMPTY_UPDATE, updateContentSchema, type UpdateContent } from "./updates";

// An updates file as CSV: the header `date,email,section,text` (any order; `member_id` may stand for `email`), one
// item a row, with the optional columns `reason`, `due` (slipping), `value`, `unit` (kpi) and `until` (away). The
// sections are shipped, slipping, blocker, kpi and note, and `away` for an absence (date: its first day, until: its
// last, text ignored). All rows of one person and date make that person's whole update for the day
// (./update-import.ts puts them together).

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

/** A KPI value as a spreadsheet writes it: 12, -3.5, 1e6; never 1,5 or 12%. */
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Reads a CSV: its rows, and the problems of those it could not read; a file not readable at all throws. */
export function readUpdateCsv(text: string): UpdateFile {
  const read = readCsvRows(text);
  if ("problem" in read) throw new UpdateImportError([{ row: "file", message: read.problem }]);
  const { head, body } = read;
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
  problem: ProblemAt,
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
  const parsed = updateItemSchemas[section].safeParse(item);
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
