import { getDb } from "@/lib/db";
import { dayText, dayValue, type UpdateContent } from "@/lib/data/updates";
import { addDays } from "./calendar";
import { LOOKBACK_DAYS, type DayInputs } from "./day-inputs";
import type { KpiDirection } from "./kpi-status";

// Loads what one organization day's generation reads (./day-inputs.ts): a handful of indexed reads, the updates'
// content only for the look-back window.

export async function loadDayInputs(organizationId: string, day: string): Promise<DayInputs | null> {
  const db = await getDb();
  const organization = await db.organization.findUnique({
    where: { id: organizationId },
    select: { name: true, timeZone: true, cutoffTime: true, workingDays: true },
  });
  if (!organization) return null;
  const [members, updates, latest, first, absences, targets] = await Promise.all([
    db.member.findMany({
      where: { organizationId },
      select: {
        id: true,
        name: true,
        role: true,
        department: true,
        isExternal: true,
        active: true,
        createdAt: true,
      },
    }),
    db.update.findMany({
      where: { organizationId, day: { gte: dayValue(addDays(day, -LOOKBACK_DAYS)), lte: dayValue(day) } },
      select: { memberId: true, day: true, content: true },
    }),
    db.update.groupBy({
      by: ["memberId"],
      where: { organizationId, day: { lte: dayValue(day) } },
      _max: { day: true },
    }),
    db.update.aggregate({ where: { organizationId }, _min: { day: true } }),
    db.absence.findMany({
      where: { organizationId, firstDay: { lte: dayValue(day) } },
      select: { memberId: true, firstDay: true, lastDay: true },
    }),
    db.kpiTarget.findMany({
      where: { organizationId },
      select: { nameKey: true, name: true, target: true, direction: true, unit: true },
    }),
  ]);
  return {
    organization,
    day,
    members,
    updates: updates.map((u) => ({
      memberId: u.memberId,
      day: dayText(u.day),
      // Checked against updateContentSchema when written (lib/data/updates.ts): not parsed again, 1,000 people × 90 days.
      content: u.content as unknown as UpdateContent,
    })),
    lastUpdateDays: new Map(latest.flatMap((l) => (l._max.day ? [[l.memberId, dayText(l._max.day)]] : []))),
    firstUpdateDay: first._min.day ? dayText(first._min.day) : null,
    absences: absences.map((a) => ({
      memberId: a.memberId,
      firstDay: dayText(a.firstDay),
      lastDay: dayText(a.lastDay),
    })),
    targets: targets.map((t) => ({ ...t, direction: t.direction as KpiDirection })),
  };
}
