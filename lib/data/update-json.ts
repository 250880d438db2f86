import { z } from "zod";
import { boundedMessage, inputExcerpt } from "@/lib/text/input-excerpt";
import {
  checkStretch,
  readDay,
  readPerson,
  tooManyRows,
  UPDATE_IMPORT_LIMITS,
  updateItemSchemas,
  UpdateImportError,
  type AbsencePart,
  type UpdateFile,
  type UpdateImportProblem,
  type UpdatePart,
} from "./update-file";
import { isEmptyUpdate, UPDATE_LIMITS, updateContentSchema, type UpdateContent } from "./updates";

// An updates file as JSON: { "updates": [...], "absences": [...] } (either may be left out). An update: { "date",
// "email" | "member_id", "shipped": [string | {title}], "slipping": [string | {item, reason?, due?}], "blockers":
// [string | {description}], "kpis": [{name, value, unit?}], "note": string }, the person's whole day; an absence:
// { "email" | "member_id", "from", "to" }.

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
  shipped: itemList(z.preprocess(asItem("title"), updateItemSchemas.shipped)),
  slipping: itemList(z.preprocess(asItem("item"), updateItemSchemas.slipping)),
  blockers: itemList(z.preprocess(asItem("description"), updateItemSchemas.blocker)),
  kpis: itemList(updateItemSchemas.kpi),
  note: updateContentSchema.shape.note.optional().transform((note) => note || null),
});

const jsonAbsenceSchema = z.strictObject({
  email: z.unknown().optional(),
  member_id: z.unknown().optional(),
  from: z.unknown().optional(),
  to: z.unknown().optional(),
});

/** Reads a JSON file: its entries, and the problems of those it could not read; a file not readable at all throws. */
export function readUpdateJson(text: string): UpdateFile {
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
