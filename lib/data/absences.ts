import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { dayText, dayValue } from "./updates";

// Absences (issue 38): a person away from one day to another, both included. An absent person is neither silent nor
// counted in a silent streak; only "away" is ever shown, no reason is stored. Set in Settings → Team, and sent with
// updates through the ingest endpoint and `sundown updates import`. The same stretch twice is one absence.

type Transaction = Prisma.TransactionClient;

export interface AbsenceWrite {
  memberId: string;
  firstDay: string;
  lastDay: string;
}

export interface StoredAbsence extends AbsenceWrite {
  id: string;
}

/** Adds absences inside the caller's transaction; one already stored is left as it is. Returns how many were new. */
export async function writeAbsences(tx: Transaction, organizationId: string, writes: AbsenceWrite[]): Promise<number> {
  if (writes.length === 0) return 0;
  const { count } = await tx.absence.createMany({
    data: writes.map(({ memberId, firstDay, lastDay }) => ({
      organizationId,
      memberId,
      firstDay: dayValue(firstDay),
      lastDay: dayValue(lastDay),
    })),
    skipDuplicates: true,
  });
  if (count > 0) await markGeneratedDaysStale(tx, organizationId, writes);
  return count;
}

/** Removes one absence of the organization. True when there was one. */
export async function removeAbsence(organizationId: string, absenceId: string): Promise<boolean> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const found = await tx.absence.findFirst({
      where: { id: absenceId, organizationId },
      select: { memberId: true, firstDay: true, lastDay: true },
    });
    if (!found) return false;
    await tx.absence.delete({ where: { id: absenceId }, select: { id: true } });
    await markGeneratedDaysStale(tx, organizationId, [
      { memberId: found.memberId, firstDay: dayText(found.firstDay), lastDay: dayText(found.lastDay) },
    ]);
    return true;
  });
}

/** The organization's absences that end on or after `from` (every one without), earliest first. */
export async function listAbsences(organizationId: string, from?: string): Promise<StoredAbsence[]> {
  const db = await getDb();
  const rows = await db.absence.findMany({
    where: { organizationId, ...(from ? { lastDay: { gte: dayValue(from) } } : {}) },
    select: { id: true, memberId: true, firstDay: true, lastDay: true },
    orderBy: [{ firstDay: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => ({ ...row, firstDay: dayText(row.firstDay), lastDay: dayText(row.lastDay) }));
}

/** An absence changes who was silent on the days it covers: those already generated are written again. */
async function markGeneratedDaysStale(tx: Transaction, organizationId: string, stretches: AbsenceWrite[]) {
  for (const { firstDay, lastDay } of stretches) {
    await tx.reportGeneration.updateMany({
      where: { organizationId, day: { gte: dayValue(firstDay), lte: dayValue(lastDay) } },
      data: { stale: true },
    });
  }
}
