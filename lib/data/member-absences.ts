import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordActivity, type Actor } from "./activity";
import { removeAbsence, writeAbsences } from "./absences";
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

/**
 * Removes one absence of one person (an absence of someone else reads as unknown), through the one removal path,
 * which has the days it covered generated again, and writes its line in the trail.
 */
export async function removeMemberAbsence(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  memberId: string,
  absenceId: string,
): Promise<void> {
  const db = await getDb();
  const { member, found } = await db.$transaction(async (tx) => ({
    member: await personFor(tx, organizationId, authority, memberId),
    found: await tx.absence.findFirst({
      where: { id: absenceId, organizationId, memberId },
      select: { firstDay: true, lastDay: true },
    }),
  }));
  if (!found || !(await removeAbsence(organizationId, absenceId))) throw new ApiError("not_found", "No such absence.");
  await db.$transaction((tx) =>
    recordActivity(tx, organizationId, actor, {
      subject: { type: "member", id: member.id, label: member.name },
      action: "absence removed",
      detail: { from: dayText(found.firstDay), to: dayText(found.lastDay) },
    }),
  );
}
