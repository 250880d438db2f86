import { getDb } from "@/lib/db";
import { uuid } from "@/lib/schemas/common";

export interface EndedSessionInput {
  sessionId: string;
  userId: string;
  /** When the session would have expired by itself: its row is useless after that. */
  expiresAt: Date;
}

/**
 * Records a signed-out session so every copy of its cookie is refused. Rows of sessions that have expired
 * anyway are pruned on the way: sign-outs are rare and the delete walks the expires_at index.
 */
export async function endSession({ sessionId, userId, expiresAt }: EndedSessionInput, now = new Date()): Promise<void> {
  if (!uuid.safeParse(sessionId).success || !uuid.safeParse(userId).success) return;
  const db = await getDb();
  await db.$transaction([
    db.endedSession.createMany({ data: [{ sessionId, userId, expiresAt }], skipDuplicates: true }),
    db.endedSession.deleteMany({ where: { expiresAt: { lt: now } } }),
  ]);
}

/** True when the session was signed out. An id Sundown never issued counts as ended. */
export async function isSessionEnded(sessionId: string): Promise<boolean> {
  if (!uuid.safeParse(sessionId).success) return true;
  const db = await getDb();
  return (await db.endedSession.count({ where: { sessionId } })) > 0;
}
