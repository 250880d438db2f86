import { z } from "zod";
import { getDb } from "@/lib/db";
import { memberInput, type MemberInput } from "@/lib/schemas/member-input";
import { inputExcerpt } from "@/lib/text/input-excerpt";
import { recordActivity, type Actor } from "./activity";
import { readCsvRows } from "./csv-reader";
import {
  changedFields,
  emailTaken,
  hasActiveFounder,
  LAST_FOUNDER,
  lockRoster,
  readRoster,
  roleRefusal,
  writeMember,
  type MemberChange,
  type RosterAuthority,
  type RosterMember,
} from "./member-writes";

// `sundown members import` and Settings → Team's upload: the roster from a CSV or JSON file, checked whole before
// anything is written and written in one transaction under the roster's lock, so a bad file never leaves half an
// import behind. One code path for both surfaces, and the page's preview is the same import rolled back.
//
// CSV: a header row naming the columns `name,email,role,department,external,active`, in any order, and optionally
// `chat` and `phone`, each as often as a person has handles or numbers (empty cells are skipped). JSON: an array
// of objects (or { "members": [...] }) with the same fields, `chat` and `phone` a string or an array of strings.
// People are matched by `email`, ignoring case: the same file again changes nothing, a changed row updates that
// person, and people missing from the file are left alone unless `deactivateMissing`. A column (or JSON field)
// the file leaves out keeps what is stored: a file without a `phone` column changes no one's numbers.

const MEMBER_IMPORT_LIMITS = { maxRows: 2_000, maxBytes: 1024 * 1024 } as const;

// `id` is what `sundown members export` writes first (report files need it); the import matches by e-mail and
// reads no id.
const COLUMNS = ["id", "name", "email", "role", "department", "external", "active", "chat", "phone"] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ["name", "email", "role"];
const REPEATABLE: readonly Column[] = ["chat", "phone"];

/** Marks a CSV row with more cells than the header has columns. */
const EXTRA_CELLS = " extra cells";

/** One problem of a file: where (a row of a CSV, counting the header as row 1; a JSON entry), which field, what. */
export interface MemberImportProblem {
  row: string;
  field?: string;
  message: string;
}

export class MemberImportError extends Error {
  constructor(readonly problems: MemberImportProblem[]) {
    super(formatMemberImportProblems(problems));
    this.name = "MemberImportError";
  }
}

const MAX_LISTED = 20;

export function formatMemberImportProblems(problems: MemberImportProblem[]): string {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  const listed = problems.slice(0, MAX_LISTED).map((p) => `  ${p.row}${p.field ? `, ${p.field}` : ""}: ${p.message}`);
  const more = problems.length > MAX_LISTED ? [`  …and ${problems.length - MAX_LISTED} more`] : [];
  return [`The roster file is invalid (${count}); nothing was imported.`, ...listed, ...more].join("\n");
}

/** A person of the file as read, before the roster's state fills in what the file leaves out. */
interface FileRow {
  row: string;
  /** The fields the file gives, as text or (JSON) as sent. */
  fields: Record<string, unknown>;
}

export type RosterFileFormat = "csv" | "json";

/** What the file's name (or its first character, for standard input) says it is. */
export function rosterFileFormat(name: string | null, text: string): RosterFileFormat {
  if (name && /\.json$/i.test(name)) return "json";
  if (name && /\.csv$/i.test(name)) return "csv";
  return /^\s*[[{]/.test(text) ? "json" : "csv";
}

function readCsv(text: string): FileRow[] {
  const read = readCsvRows(text);
  if ("problem" in read) throw new MemberImportError([{ row: "file", message: read.problem }]);
  const { head, body } = read;
  const header = head.record.map((name) => name.toLowerCase());
  const problems: MemberImportProblem[] = [];
  header.forEach((name, i) => {
    if (!(COLUMNS as readonly string[]).includes(name)) {
      problems.push({
        row: "row 1",
        field: inputExcerpt(head.record[i]!),
        message: `unknown column; the columns are ${COLUMNS.join(", ")}`,
      });
    } else if (!REPEATABLE.includes(name as Column) && header.indexOf(name) !== i) {
      problems.push({ row: "row 1", field: name, message: "this column is repeated; only chat and phone may be" });
    }
  });
  for (const column of REQUIRED) {
    if (!header.includes(column)) problems.push({ row: "row 1", field: column, message: "this column is required" });
  }
  if (problems.length > 0) throw new MemberImportError(problems);
  return body.map(({ record, info }) => {
    const row = `row ${info.records}`;
    const fields: FileRow["fields"] = {};
    record.forEach((value, i) => {
      const column = header[i] as Column | undefined;
      if (!column) return;
      if (REPEATABLE.includes(column)) {
        fields[column] = [...((fields[column] as string[] | undefined) ?? []), ...(value ? [value] : [])];
      } else fields[column] = value;
    });
    if (record.length > header.length) {
      fields[EXTRA_CELLS] = record.slice(header.length);
    }
    return { row, fields };
  });
}

function readJson(text: string): FileRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new MemberImportError([{ row: "file", message: `not valid JSON: ${(error as Error).message}` }]);
  }
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === "object" && Array.isArray((parsed as { members?: unknown }).members)
      ? (parsed as { members: unknown[] }).members
      : null;
  if (!list) {
    throw new MemberImportError([{ row: "file", message: 'expected an array of people, or { "members": [...] }' }]);
  }
  const notObjects = list.flatMap((entry, i) =>
    !entry || typeof entry !== "object" || Array.isArray(entry)
      ? [{ row: `members[${i}]`, message: "expected an object with name, email, role…" }]
      : [],
  );
  if (notObjects.length > 0) throw new MemberImportError(notObjects);
  return list.map((entry, i) => ({ row: `members[${i}]`, fields: entry as FileRow["fields"] }));
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  yes: true,
  "1": true,
  false: false,
  no: false,
  "0": false,
};

/** A CSV cell or JSON value as a boolean; undefined when the file leaves it empty. */
const fileBoolean = z.union([z.boolean(), z.string()]).transform((value, ctx) => {
  if (typeof value === "boolean") return value;
  const word = value.trim().toLowerCase();
  if (word === "") return undefined;
  if (word in BOOLEAN_WORDS) return BOOLEAN_WORDS[word];
  ctx.addIssue({ code: "custom", message: "must be true or false" });
  return z.NEVER;
});

const fileList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === "string" ? (value.trim() ? [value] : []) : value.filter((v) => v.trim())));

/** The file's own fields, before defaults: what each may be. */
const fileRowSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string(),
  email: z.string().min(1, "required: the roster is matched by it"),
  role: z.string().transform((value) => value.trim().toLowerCase()),
  department: z.string().nullable().optional(),
  external: fileBoolean.optional(),
  active: fileBoolean.optional(),
  chat: fileList.optional(),
  phone: fileList.optional(),
});

/** The person a row makes: the file's fields over what is stored (or the defaults, for someone new). */
function inputOf(fields: z.infer<typeof fileRowSchema>, stored: RosterMember | undefined): unknown {
  return {
    name: fields.name,
    email: fields.email,
    role: fields.role,
    department: fields.department === undefined ? (stored?.department ?? "") : (fields.department ?? ""),
    external: fields.external ?? stored?.external ?? false,
    active: fields.active ?? stored?.active ?? true,
    otherEmails: stored?.otherEmails ?? [],
    chats: fields.chat ?? stored?.chats ?? [],
    phones: fields.phone ?? stored?.phones ?? [],
  };
}

function fieldOf(path: PropertyKey[]): string {
  const [first] = path;
  const names: Record<string, string> = { otherEmails: "email", chats: "chat", phones: "phone" };
  return typeof first === "string" ? (names[first] ?? first.trim()) : "";
}

/**
 * One row as the person it makes, or every problem of it: the file's own rules first, then the roster's rule for
 * a person (lib/schemas/member-input.ts) on the fields that passed them, so one pass names all its faults.
 */
function readRow(
  row: string,
  fields: FileRow["fields"],
  stored: (email: string) => RosterMember | undefined,
): { input: MemberInput; before: RosterMember | null } | { problems: MemberImportProblem[] } {
  const problems: MemberImportProblem[] = [];
  const file = fileRowSchema.safeParse(fields);
  let data = file.data;
  if (!file.success) {
    const faulty = new Set<string>();
    for (const issue of file.error.issues) {
      if (issue.code === "unrecognized_keys") {
        issue.keys.forEach((key) => faulty.add(key));
        const names = issue.keys.map((key) => inputExcerpt(key.trim())).join(", ");
        problems.push({ row, field: names, message: `unknown field; the fields are ${COLUMNS.join(", ")}` });
      } else {
        faulty.add(String(issue.path[0]));
        problems.push({ row, field: fieldOf(issue.path), message: issue.message });
      }
    }
    data = fileRowSchema.safeParse(Object.fromEntries(Object.entries(fields).filter(([k]) => !faulty.has(k)))).data;
  }
  if (!data) return { problems };
  const before = stored(data.email) ?? null;
  const parsed = memberInput.safeParse(inputOf(data, before ?? undefined));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      if (!problems.some((p) => p.field === field)) problems.push({ row, field, message: issue.message });
    }
  }
  return parsed.success && problems.length === 0 ? { input: parsed.data, before } : { problems };
}

export interface MemberImportOptions {
  dryRun?: boolean;
  deactivateMissing?: boolean;
}

export interface MemberImportResult {
  added: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  dryRun: boolean;
  /** Each person the import touched or matched, in the file's order, then the people it deactivated. */
  people: { row: string; id: string; name: string; change: MemberChange }[];
}

/** Rolls a dry run back, carrying what it would have done out of the transaction. */
class DryRun extends Error {
  constructor(readonly result: MemberImportResult) {
    super("dry run");
  }
}

/**
 * Imports a roster file into the organization, all or nothing. A lead's import cannot add or change founders
 * (nor deactivate a missing one); no import leaves the organization without an active founder. Throws
 * MemberImportError naming every problem with its row and field; a dry run writes nothing and answers the same.
 */
export async function importMembers(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  file: { text: string; format: RosterFileFormat },
  { dryRun = false, deactivateMissing = false }: MemberImportOptions = {},
): Promise<MemberImportResult> {
  if (Buffer.byteLength(file.text) > MEMBER_IMPORT_LIMITS.maxBytes) {
    throw new MemberImportError([{ row: "file", message: `larger than ${MEMBER_IMPORT_LIMITS.maxBytes} bytes` }]);
  }
  const rows = file.format === "csv" ? readCsv(file.text) : readJson(file.text);
  if (rows.length > MEMBER_IMPORT_LIMITS.maxRows) {
    throw new MemberImportError([{ row: "file", message: `more than ${MEMBER_IMPORT_LIMITS.maxRows} people` }]);
  }
  const db = await getDb();
  try {
    return await db.$transaction(
      async (tx) => {
        await lockRoster(tx, organizationId);
        const roster = await readRoster(tx, organizationId);
        const byEmail = new Map(roster.filter((m) => m.email).map((m) => [m.email!.toLowerCase(), m]));
        const problems: MemberImportProblem[] = [];
        const planned: { row: string; before: RosterMember | null; input: MemberInput }[] = [];
        const seen = new Map<string, string>();
        for (const { row, fields } of rows) {
          if (EXTRA_CELLS in fields) {
            problems.push({ row, message: "more cells than the header has columns" });
            continue;
          }
          const read = readRow(row, fields, (email) => byEmail.get(email.trim().toLowerCase()));
          if ("problems" in read) {
            problems.push(...read.problems);
            continue;
          }
          const { input, before } = read;
          const key = input.email!.toLowerCase();
          const earlier = seen.get(key);
          if (earlier) {
            problems.push({ row, field: "email", message: `the same address as ${earlier}` });
            continue;
          }
          seen.set(key, row);
          const refusal = roleRefusal(authority, before, input);
          // A lead's file may name a founder as they are: only a change is refused.
          const changes = !before || changedFields(before, input).length > 0;
          if (refusal && changes) problems.push({ row, field: "role", message: refusal });
          planned.push({ row, before, input });
        }
        const missing = deactivateMissing
          ? roster.filter((m) => m.active && !(m.email && seen.has(m.email.toLowerCase())))
          : [];
        for (const member of missing) {
          if (authority === "lead" && member.role === "founder") {
            problems.push({
              row: "file",
              field: "email",
              message: `${member.name}, a founder, is missing from the file: only founders can deactivate a founder`,
            });
          }
        }
        // A new person's address must not be another person's already (matched people keep theirs).
        for (const { row, before, input } of planned) {
          if (!before && input.email && (await emailTaken(tx, organizationId, input.email, null))) {
            problems.push({ row, field: "email", message: "someone of the roster has this address already" });
          }
        }
        if (problems.length > 0) throw new MemberImportError(problems);

        const hadFounder = await hasActiveFounder(tx, organizationId);
        const result: MemberImportResult = {
          added: 0,
          updated: 0,
          unchanged: 0,
          deactivated: 0,
          dryRun,
          people: [],
        };
        const count = (row: string, id: string, name: string, change: MemberChange) => {
          result.people.push({ row, id, name, change });
          if (change === "added") result.added++;
          else if (change === "unchanged") result.unchanged++;
          else if (change === "deactivated") result.deactivated++;
          else result.updated++;
        };
        for (const { row, before, input } of planned) {
          const { id, change } = await writeMember(tx, organizationId, actor, before, input);
          count(row, id, input.name, change);
        }
        for (const member of missing) {
          const { id, change } = await writeMember(tx, organizationId, actor, member, {
            ...planInputOf(member),
            active: false,
          });
          count("missing from the file", id, member.name, change);
        }
        if (hadFounder && !(await hasActiveFounder(tx, organizationId))) {
          throw new MemberImportError([{ row: "file", field: "role", message: LAST_FOUNDER }]);
        }
        if (result.added + result.updated + result.deactivated > 0) {
          await recordActivity(tx, organizationId, actor, {
            subject: { type: "roster", label: "the roster" },
            action: "imported",
            detail: {
              added: result.added,
              updated: result.updated,
              unchanged: result.unchanged,
              deactivated: result.deactivated,
            },
          });
        }
        if (dryRun) throw new DryRun(result);
        return result;
      },
      { maxWait: 10_000, timeout: 120_000 },
    );
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}

/** A stored person as the import's input, to compare a file's row with. */
function planInputOf(member: RosterMember): MemberInput {
  const { name, email, role, department, external, active, otherEmails, chats, phones } = member;
  return { name, email, role, department, external, active, otherEmails, chats, phones };
}
