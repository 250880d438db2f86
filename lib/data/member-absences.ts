import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordActivity, type Actor } from "./activity";
import { writeAbsences } from "./absences";
import type { RosterAuthority } from "./member-writes";
import { dayText } from "./updates";

// Settings → Team's absences: a person away from one day to another, set and removed by founders and leads under
// the roster's rule (a lead changes no founder), each a line in the team's trail. Only "away" is ever shown of
// them; the write path is lib/data/absences.ts, the same as the imports'.

const NO_SUCH_PERSON = "This person does not exist in your organization.";
const LEAD_CANNOT_CHANGE_FOUNDER = "Only founders can change a founder.";

type Transaction = Prisma.TransactionClient;

async function personFor(tx: Transaction, organizationId: string, authority: RosterAuthority, memberId: string) {
  const member = await tx.member.findFirst({
    where: { id: memberId, organizationId },
    select: { id: true, name: true, role: true },
  });
  if (!member) throw new ApiError("not_found", NO_SUCH_PERSON);
  if (authority === "lead" && member.role === "founder") throw new ApiError("forbidden", LEAD_CANNOT_CHANGE_FOUNDER);
  return member;
}

/** Sets an absence of one person; the same stretch again is the one already there. True when it is new. */
export async function addMemberAbsence(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  absence: { memberId: string; firstDay: string; lastDay: string },
): Promise<boolean> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const member = await personFor(tx, organizationId, authority, absence.memberId);
    const added = (await writeAbsences(tx, organizationId, [absence])) > 0;
    if (added) {
      await recordActivity(tx, organizationId, actor, {
        subject: { type: "member", id: member.id, label: member.name },
        action: "absence added",
        detail: { from: absence.firstDay, to: absence.lastDay },
      });
    }
    return added;
  });
}

/** Removes one absence of one person (an absence of someone else reads as unknown). */
export async function removeMemberAbsence(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  memberId: string,
  absenceId: string,
): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const member = await personFor(tx, organizationId, authority, memberId);
    const found = await tx.absence.findFirst({
      where: { id: absenceId, organizationId, memberId },
      select: { id: true, firstDay: true, lastDay: true },
    });
    if (!found) throw new ApiError("not_found", "No such absence.");
    await tx.absence.delete({ where: { id: found.id }, select: { id: true } });
    // Days already generated are written again: the person counts as silent on them now.
    await tx.reportGeneration.updateMany({
      where: { organizationId, day: { gte: found.firstDay, lte: found.lastDay } },
      data: { stale: true },
    });
    await recordActivity(tx, organizationId, actor, {
      subject: { type: "member", id: member.id, label: member.name },
      action: "absence removed",
      detail: { from: dayText(found.firstDay), to: dayText(found.lastDay) },
    });
  });
}
