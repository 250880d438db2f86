import { z } from "zod";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

// Updates (issue 38): what one person writes for one day, in the organization's time zone. One per person and day;
// writing the day again replaces it. Stored as written (contact details are masked where text is served, as report
// text is), in one normalised shape whichever way it came in: the "Your day" page, the ingest endpoint's `updates`
// batch, or `sundown updates import`. Each way parses its own format into UpdateContent; every write goes through
// writeUpdates, which also tells generation (lib/generation) which days' reports to write again.

const TEXT_MAX = 1_000;
const NOTE_MAX = 5_000;
const ITEMS_MAX = 50;

export const UPDATE_LIMITS = { textMax: TEXT_MAX, noteMax: NOTE_MAX, itemsMax: ITEMS_MAX } as const;

/** A day as written in files and forms: YYYY-MM-DD, a real date. */
export const daySchema = z.iso.date({ error: "must be a date as YYYY-MM-DD" });

const text = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(TEXT_MAX, { error: `must be at most ${TEXT_MAX} characters` });
const items = <T extends z.ZodType>(item: T) =>
  z.array(item).max(ITEMS_MAX, { error: `must hold at most ${ITEMS_MAX} items` });

/** One update as stored: every section present, items in the order written. */
export const updateContentSchema = z.strictObject({
  shipped: items(z.strictObject({ title: text })),
  slipping: items(z.strictObject({ item: text, reason: text.optional(), due: daySchema.optional() })),
  blockers: items(z.strictObject({ description: text })),
  kpis: items(
    z.strictObject({
      name: text,
      value: z.number({ error: "must be a number" }).finite(),
      unit: text.optional(),
    }),
  ),
  note: z
    .string()
    .trim()
    .max(NOTE_MAX, { error: `must be at most ${NOTE_MAX} characters` })
    .nullable(),
});

export type UpdateContent = z.infer<typeof updateContentSchema>;

export const EMPTY_UPDATE: UpdateContent = { shipped: [], slipping: [], blockers: [], kpis: [], note: null };

/** Whether an update says nothing at all (saving one removes the day's update instead). */
export function isEmptyUpdate(content: UpdateContent): boolean {
  const { shipped, slipping, blockers, kpis, note } = content;
  return !shipped.length && !slipping.length && !blockers.length && !kpis.length && !note;
}

export type UpdateSource = "page" | "ingest" | "import";

/** Only founders and leads report KPI values; a member's update with some is refused. */
export function mayReportKpis(role: string): boolean {
  return role === "founder" || role === "lead";
}

export interface StoredUpdate {
  memberId: string;
  day: string;
  content: UpdateContent;
  source: UpdateSource;
  writtenAt: Date;
}

type Transaction = Prisma.TransactionClient;

/** Updates per INSERT statement: a chunk's parameters stay a few megabytes at most. */
const WRITE_CHUNK = 1_000;

export interface UpdateWrite {
  memberId: string;
  day: string;
  content: UpdateContent;
  source: UpdateSource;
}

export type UpdateOutcome = "added" | "unchanged" | "replaced";

/** A day as the database's DATE column takes it through the client: midnight UTC of that date. */
export function dayValue(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** A DATE column's value as YYYY-MM-DD. */
export function dayText(value: Date): string {
  return value.toISOString().slice(0, 10);
}

/** One person's update for one day, or null. */
export async function getUpdate(organizationId: string, memberId: string, day: string): Promise<StoredUpdate | null> {
  const db = await getDb();
  const found = await db.update.findUnique({
    where: { organizationId_memberId_day: { organizationId, memberId, day: dayValue(day) } },
    select: { memberId: true, day: true, content: true, source: true, writtenAt: true },
  });
  return found && { ...found, day: dayText(found.day), content: updateContentSchema.parse(found.content) };
}

/**
 * Writes updates of one organization inside the caller's transaction, each replacing its person's day; the same
 * content again changes nothing. Checks that every member is the organization's and that only founders and leads
 * report KPIs (the caller has checked the shapes). Marks the days written for generation (markDaysForGeneration).
 * Returns each write's outcome, in order.
 */
export async function writeUpdates(
  tx: Transaction,
  organizationId: string,
  writes: UpdateWrite[],
): Promise<UpdateOutcome[]> {
  if (writes.length === 0) return [];
  const memberIds = [...new Set(writes.map((write) => write.memberId))];
  const members = await tx.member.findMany({
    where: { organizationId, id: { in: memberIds } },
    select: { id: true, role: true },
  });
  const roles = new Map(members.map((member) => [member.id, member.role]));
  for (const write of writes) {
    const role = roles.get(write.memberId);
    if (!role) throw new ApiError("invalid_parameter", `No such person in the organization: ${write.memberId}.`);
    if (write.content.kpis.length > 0 && !mayReportKpis(role)) {
      throw new ApiError("invalid_parameter", "Only founders and leads report KPI values.");
    }
  }
  // One read of what is stored and one write per chunk, whatever the batch's size: a file of 5,000 updates is two
  // statements' work, not 10,000 round trips.
  const stored = await tx.$queryRaw<{ key: string; content: unknown }[]>`
    SELECT u.member_id::text || ' ' || to_char(u.day, 'YYYY-MM-DD') AS key, u.content
    FROM updates u
    JOIN unnest(${writes.map((write) => write.memberId)}::uuid[], ${writes.map((write) => write.day)}::date[])
      AS w(member_id, day) ON u.member_id = w.member_id AND u.day = w.day
    WHERE u.organization_id = ${organizationId}::uuid`;
  const storedContent = new Map<string, unknown>(stored.map((row) => [row.key, row.content]));
  const outcomes: UpdateOutcome[] = [];
  // The last write of a person's day wins, as if the batch were written one update after another.
  const changed = new Map<string, UpdateWrite>();
  for (const write of writes) {
    const key = `${write.memberId} ${write.day}`;
    const before = storedContent.get(key);
    if (before !== undefined && sameJson(before, write.content)) {
      outcomes.push("unchanged");
      continue;
    }
    storedContent.set(key, write.content);
    changed.set(key, write);
    outcomes.push(before === undefined ? "added" : "replaced");
  }
  const rows = [...changed.values()];
  for (let start = 0; start < rows.length; start += WRITE_CHUNK) {
    const chunk = rows.slice(start, start + WRITE_CHUNK);
    await tx.$executeRaw`
      INSERT INTO updates (organization_id, member_id, day, content, source)
      SELECT ${organizationId}::uuid, w.member_id, w.day, w.content::jsonb, w.source::update_source
      FROM unnest(
        ${chunk.map((write) => write.memberId)}::uuid[],
        ${chunk.map((write) => write.day)}::date[],
        ${chunk.map((write) => JSON.stringify(write.content))}::text[],
        ${chunk.map((write) => write.source)}::text[]
      ) AS w(member_id, day, content, source)
      ON CONFLICT (organization_id, member_id, day)
      DO UPDATE SET content = excluded.content, source = excluded.source, written_at = CURRENT_TIMESTAMP`;
  }
  const changedDays = new Set(rows.map((write) => write.day));
  await markDaysForGeneration(tx, organizationId, [...changedDays]);
  return outcomes;
}

/** Removes a person's update for a day (the page saved it empty). True when there was one. */
export async function deleteUpdate(
  tx: Transaction,
  organizationId: string,
  memberId: string,
  day: string,
): Promise<boolean> {
  const { count } = await tx.update.deleteMany({ where: { organizationId, memberId, day: dayValue(day) } });
  if (count > 0) await markDaysForGeneration(tx, organizationId, [day]);
  return count > 0;
}

/**
 * Tells generation that these days' inputs changed: a generated day becomes stale, a day never generated is queued
 * (generated once its cutoff has passed, however long ago that was: a team backfilling its history). Stale is set
 * on a day never generated too, so that a write landing while an instance generates that day (it clears stale when
 * it claims the day) is not lost: the day is generated again.
 */
async function markDaysForGeneration(tx: Transaction, organizationId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO report_generations (organization_id, day)
    SELECT ${organizationId}::uuid, d::date FROM unnest(${days}::text[]) AS d
    ON CONFLICT (organization_id, day) DO UPDATE SET stale = true`;
}

/** Saves one person's update for one day in its own transaction (the "Your day" page); empty removes it. */
export async function saveUpdate(organizationId: string, write: UpdateWrite): Promise<UpdateOutcome | "removed"> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    if (isEmptyUpdate(write.content)) {
      return (await deleteUpdate(tx, organizationId, write.memberId, write.day)) ? "removed" : "unchanged";
    }
    const [outcome] = await writeUpdates(tx, organizationId, [write]);
    return outcome!;
  });
}

/** JSON equality that ignores key order (jsonb does not keep it). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, i) => sameJson(value, other[i]));
  }
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every((key) => sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}
