import { getDb } from "@/lib/db";
import { uuid } from "@/lib/schemas/common";
import type { MemberRole } from "@/lib/schemas/team";

/** The person behind a session, as the database says now (role and organization are never taken from the cookie). */
export interface SessionUser {
  userId: string;
  email: string;
  memberId: string;
  name: string;
  role: MemberRole;
  organization: { id: string; slug: string; name: string };
}

const memberSelect = {
  id: true,
  name: true,
  role: true,
  active: true,
  organization: { select: { id: true, slug: true, name: true } },
} as const;

/** Sign-in lookup. The password hash is omitted globally, so it is selected here by name. */
export async function findUserForSignIn(email: string) {
  const db = await getDb();
  return db.user.findUnique({
    where: { email },
    select: { id: true, email: true, passwordHash: true, member: { select: memberSelect } },
  });
}

function toSessionUser(row: {
  id: string;
  email: string;
  member: { id: string; name: string; role: MemberRole; active: boolean; organization: SessionUser["organization"] };
}): SessionUser | null {
  if (!row.member.active) return null;
  return {
    userId: row.id,
    email: row.email,
    memberId: row.member.id,
    name: row.member.name,
    role: row.member.role,
    organization: row.member.organization,
  };
}

/** The current state of a signed-in user; null when the user is gone or the member is inactive. */
export async function findSessionUser(userId: string): Promise<SessionUser | null> {
  if (!uuid.safeParse(userId).success) return null;
  const db = await getDb();
  const row = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, member: { select: memberSelect } },
  });
  return row ? toSessionUser(row) : null;
}

/** OAuth sign-in: an existing Sundown user with this email, if any (no accounts are created here). */
export async function findSessionUserByEmail(email: string): Promise<SessionUser | null> {
  const db = await getDb();
  const row = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, member: { select: memberSelect } },
  });
  return row ? toSessionUser(row) : null;
}
