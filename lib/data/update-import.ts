import { getDb } from "@/lib/db";
import { calendarDayIn } from "@/lib/schemas/time-zone";
import { recordActivity, type Actor } from "./activity";
import { writeAbsences, type AbsenceWrite } from "./absences";
import { readUpdateCsv } from "./update-csv";
import {
  UPDATE_IMPORT_LIMITS,
  UpdateImportError,
  type UpdateFileFormat,
  type AbsencePart,
  type PersonRef,
  type UpdateFile,
  type UpdateImportProblem,
  type UpdatePart,
} from "./update-file";
import { readUpdateJson } from "./update-json";
import {
  mayReportKpis,
  updateContentSchema,
  type UpdateContent,
  type UpdateOutcome,
  type UpdateSource,
  type UpdateWrite,
  writeUpdates,
} from "./updates";

// `sundown updates import` and POST /ingest/v1/updates: a file read (./update-csv.ts, ./update-json.ts), its people looked up in the
// organization's roster, checked whole, then written in one transaction through writeUpdates and writeAbsences,
// so a bad file never leaves half an import behind. A person's day written again replaces it; the same file again
// changes nothing. A dry run does all of it and rolls back, so its counts are the import's.

/**
 * Reads a file (or request body): its rows, and the problems of those it could not read. A file that cannot be
 * read at all (not CSV or JSON, a bad header, over the limits) throws.
 */
export function readUpdateFile(text: string, format: UpdateFileFormat): UpdateFile {
  if (Buffer.byteLength(text) > UPDATE_IMPORT_LIMITS.maxBytes) {
    throw new UpdateImportError([{ row: "file", message: `larger than ${UPDATE_IMPORT_LIMITS.maxBytes} bytes` }]);
  }
  return format === "csv" ? readUpdateCsv(text) : readUpdateJson(text);
}

export interface UpdateImportResult {
  updates: { added: number; unchanged: number; replaced: number };
  absences: { added: number; unchanged: number };
  dryRun: boolean;
}

interface RosterEntry {
  id: string;
  name: string;
  role: string;
}

/** Rolls a dry run back, carrying what it would have done out of the transaction. */
class DryRun extends Error {
  constructor(readonly result: UpdateImportResult) {
    super("dry run");
  }
}

const UPDATES_SUBJECT = "updates";

/**
 * Imports a read file into the organization, all or nothing. People are named by e-mail (the roster's, ignoring
 * case) or member id; only founders and leads report KPI values; no day after today in the organization's time zone
 * (days long past are taken: a team backfilling its history). Throws UpdateImportError naming every problem.
 */
export async function importUpdates(
  organizationId: string,
  file: UpdateFile,
  {
    actor,
    source,
    dryRun = false,
    now = new Date(),
  }: { actor: Actor; source: Exclude<UpdateSource, "page">; dryRun?: boolean; now?: Date },
): Promise<UpdateImportResult> {
  const db = await getDb();
  try {
    return await db.$transaction(
      async (tx) => {
        const { timeZone } = await tx.organization.findUniqueOrThrow({
          where: { id: organizationId },
          select: { timeZone: true },
        });
        const roster = await tx.member.findMany({
          where: { organizationId },
          select: { id: true, name: true, role: true, email: true },
        });
        const byEmail = new Map(roster.flatMap((m) => (m.email ? [[m.email.toLowerCase(), m] as const] : [])));
        const byId = new Map(roster.map((m) => [m.id, m]));
        const problems: UpdateImportProblem[] = [...file.problems];
        const find = (row: string, person: PersonRef): RosterEntry | undefined => {
          const found = person.email ? byEmail.get(person.email.toLowerCase()) : byId.get(person.memberId!);
          if (!found) {
            problems.push({
              row,
              field: person.field,
              message: person.email
                ? "no one of the roster has this address (see `sundown members list`)"
                : "no member of the organization has this id",
            });
          }
          return found;
        };
        const today = calendarDayIn(now, timeZone);
        const writes = planUpdates(file.updates, find, today, timeZone, problems);
        const absences = file.absences.flatMap((absence: AbsencePart): AbsenceWrite[] => {
          const member = find(absence.row, absence.person);
          return member ? [{ memberId: member.id, firstDay: absence.firstDay, lastDay: absence.lastDay }] : [];
        });
        if (problems.length > 0) throw new UpdateImportError(sortByRow(problems));

        const outcomes = await writeUpdates(
          tx,
          organizationId,
          writes.map((write) => ({ ...write, source })),
        );
        const added = await writeAbsences(tx, organizationId, absences);
        const count = (outcome: UpdateOutcome) => outcomes.filter((o) => o === outcome).length;
        const result: UpdateImportResult = {
          updates: { added: count("added"), unchanged: count("unchanged"), replaced: count("replaced") },
          absences: { added, unchanged: absences.length - added },
          dryRun,
        };
        if (result.updates.added + result.updates.replaced + result.absences.added > 0) {
          await recordActivity(tx, organizationId, actor, {
            subject: { type: UPDATES_SUBJECT, label: importLabel(writes.length, absences.length) },
            action: "imported",
            detail: {
              updates_added: result.updates.added,
              updates_replaced: result.updates.replaced,
              updates_unchanged: result.updates.unchanged,
              absences_added: result.absences.added,
              absences_unchanged: result.absences.unchanged,
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

type PlannedWrite = Omit<UpdateWrite, "source">;

/**
 * The file's updates as one write per person and day: a CSV's rows of one person and date put together in the
 * file's order, a JSON entry as it is. Problems (an unknown person, a day to come, KPI values from a member, the
 * same day twice in JSON, a day too long once put together) are added to `problems`.
 */
function planUpdates(
  parts: UpdatePart[],
  find: (row: string, person: PersonRef) => RosterEntry | undefined,
  today: string,
  timeZone: string,
  problems: UpdateImportProblem[],
): PlannedWrite[] {
  const days = new Map<string, { rows: string[]; whole: boolean; write: PlannedWrite }>();
  for (const part of parts) {
    const member = find(part.row, part.person);
    if (part.day > today) {
      problems.push({
        row: part.row,
        field: "date",
        message: `is after today (${today} in ${timeZone}): an update is written on its day or later`,
      });
    }
    if (!member) continue;
    if (part.content.kpis.length > 0 && !mayReportKpis(member.role)) {
      problems.push({
        row: part.row,
        field: part.kpiField,
        message: `only founders and leads report KPI values; ${member.name} is a ${member.role}`,
      });
    }
    const key = `${member.id} ${part.day}`;
    const earlier = days.get(key);
    if (!earlier) {
      days.set(key, {
        rows: [part.row],
        whole: part.whole,
        write: { memberId: member.id, day: part.day, content: part.content },
      });
    } else if (part.whole || earlier.whole) {
      problems.push({ row: part.row, field: "date", message: `the same person and date as ${earlier.rows[0]}` });
    } else {
      earlier.rows.push(part.row);
      earlier.write.content = joined(earlier.write.content, part.content);
    }
  }
  for (const { rows, write } of days.values()) {
    const checked = updateContentSchema.safeParse(write.content);
    for (const issue of checked.error?.issues ?? []) {
      problems.push({
        row: rows[0]!,
        field: issue.path[0] === "note" ? "text" : "section",
        message: `${issue.path[0] as string} ${issue.message}, for this person and date in all`,
      });
    }
  }
  return [...days.values()].map(({ write }) => write);
}

/** Two rows of one person's day as one: the items in the file's order, the notes a line each. */
function joined(a: UpdateContent, b: UpdateContent): UpdateContent {
  return {
    shipped: [...a.shipped, ...b.shipped],
    slipping: [...a.slipping, ...b.slipping],
    blockers: [...a.blockers, ...b.blockers],
    kpis: [...a.kpis, ...b.kpis],
    note: a.note && b.note ? `${a.note}\n${b.note}` : (a.note ?? b.note),
  };
}

function importLabel(updates: number, absences: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [updates ? plural(updates, "update") : "", absences ? plural(absences, "absence") : ""]
    .filter(Boolean)
    .join(", ");
}

/** Problems in the file's order: CSV rows by number, then JSON's updates before its absences, by index. */
function sortByRow(problems: UpdateImportProblem[]): UpdateImportProblem[] {
  const rank = (row: string) => {
    const match = /^(?:row (\d+)|updates\[(\d+)\]|absences\[(\d+)\])$/.exec(row);
    if (!match) return -1;
    return match[1] ? Number(match[1]) : match[2] ? Number(match[2]) : 1e9 + Number(match[3]);
  };
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p.row) - rank(b.p.row) || a.i - b.i)
    .map(({ p }) => p);
}
