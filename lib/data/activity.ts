import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// The organization's activity trail: who changed what, and when. A change writes its line in its own transaction,
// whichever surface made it (a settings page, the CLI), so a change is never without its line nor a line without
// its change. Each kind of subject names its actions; a settings section shows the lines of its kinds.

/** Who made a change: a signed-in user (named as the roster names them now), or an operator at the shell. */
export type Actor = { userId: string; label: string } | { userId?: undefined; label: string };

/** A few facts about a change, shown beside its line: a role before and after, an import's counts. Never a secret. */
export type ActivityDetail = Record<string, string | number | boolean | null>;

export interface ActivityEntry {
  /** What was changed: its kind ("member", "invitation", "report"…), its id, and what it is called now. */
  subject: { type: string; id?: string; label: string };
  /** What was done to it, e.g. "created", "deactivated". */
  action: string;
  detail?: ActivityDetail;
}

export interface ActivityItem {
  id: string;
  subject: { type: string; id: string | null; label: string };
  action: string;
  detail: ActivityDetail | null;
  actor: string;
  createdAt: Date;
}

/** Writes one line of the trail, in `tx`: the transaction of the change it records. */
export async function recordActivity(
  tx: Prisma.TransactionClient,
  organizationId: string,
  actor: Actor,
  { subject, action, detail }: ActivityEntry,
): Promise<void> {
  await tx.activityEvent.create({
    data: activityRow(organizationId, actor, { subject, action, detail }),
    select: { id: true },
  });
}

/** One line of the trail as its table stores it. */
function activityRow(organizationId: string, actor: Actor, { subject, action, detail }: ActivityEntry) {
  return {
    organizationId,
    subjectType: subject.type,
    subjectId: subject.id ?? null,
    subjectLabel: subject.label,
    action,
    detail: detail ?? undefined,
    actorUserId: actor.userId ?? null,
    actorLabel: actor.label,
  };
}

/** Writes several lines of the trail in one statement, in `tx` (an import's replaced reports, one line each). */
export async function recordActivities(
  tx: Prisma.TransactionClient,
  organizationId: string,
  actor: Actor,
  entries: ActivityEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx.activityEvent.createMany({ data: entries.map((entry) => activityRow(organizationId, actor, entry)) });
}

/** The organization's latest lines about these kinds of subject, newest first. */
export async function listActivity(
  organizationId: string,
  subjectTypes: readonly string[],
  take = 50,
): Promise<ActivityItem[]> {
  const db = await getDb();
  const rows = await db.activityEvent.findMany({
    where: { organizationId, subjectType: { in: [...subjectTypes] } },
    select: {
      id: true,
      subjectType: true,
      subjectId: true,
      subjectLabel: true,
      action: true,
      detail: true,
      actorLabel: true,
      createdAt: true,
      actor: { select: { member: { select: { name: true } } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
  return rows.map((row) => ({
    id: row.id,
    subject: { type: row.subjectType, id: row.subjectId, label: row.subjectLabel },
    action: row.action,
    detail: (row.detail as ActivityDetail | null) ?? null,
    actor: row.actor?.member.name ?? row.actorLabel,
    createdAt: row.createdAt,
  }));
}

/**
 * Who made each of these subjects, as the line of its making names them (`makings`: "created", or a key's "rolled"):
 * for what no user made (the CLI), or whose maker's account is gone, which the row itself cannot say.
 */
export async function makersOf(
  organizationId: string,
  subjectType: string,
  subjectIds: string[],
  makings: readonly string[],
  tx?: Prisma.TransactionClient,
): Promise<Map<string, string>> {
  if (subjectIds.length === 0) return new Map();
  const rows = await (tx ?? (await getDb())).activityEvent.findMany({
    where: { organizationId, subjectType, subjectId: { in: subjectIds }, action: { in: [...makings] } },
    select: { subjectId: true, actorLabel: true },
  });
  return new Map(rows.map((row) => [row.subjectId!, row.actorLabel]));
}
