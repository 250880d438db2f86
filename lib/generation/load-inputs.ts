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
    // Of the days before, only what carries over (slipping items and blockers): a third of the text to read.
    db.$queryRaw<{ member_id: string; day: string; content: UpdateContent }[]>`
      SELECT member_id::text AS member_id, to_char(day, 'YYYY-MM-DD') AS day,
             CASE WHEN day = ${day}::date THEN content
                  ELSE jsonb_build_object('shipped', '[]'::jsonb, 'slipping', content->'slipping',
                         'blockers', content->'blockers', 'kpis', '[]'::jsonb, 'note', NULL) END AS content
      FROM updates
      WHERE organization_id = ${organizationId}::uuid
        AND day BETWEEN ${addDays(day, -LOOKBACK_DAYS)}::date AND ${day}::date`,
    db.$queryRaw<{ member_id: string; day: string }[]>`
      SELECT member_id::text AS member_id, to_char(max(day), 'YYYY-MM-DD') AS day
      FROM updates WHERE organization_id = ${organizationId}::uuid AND day <= ${day}::date
      GROUP BY member_id`,
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
    // Checked against updateContentSchema when written (lib/data/updates.ts): not parsed again, 1,000 people × 90 days.
    updates: updates.map((u) => ({ memberId: u.member_id, day: u.day, content: u.content })),
    lastUpdateDays: new Map(latest.map((l) => [l.member_id, l.day])),
    firstUpdateDay: first._min.day ? dayText(first._min.day) : null,
    absences: absences.map((a) => ({
      memberId: a.memberId,
      firstDay: dayText(a.firstDay),
      lastDay: dayText(a.lastDay),
    })),
    targets: targets.map((t) => ({ ...t, direction: t.direction as KpiDirection })),
  };
}
