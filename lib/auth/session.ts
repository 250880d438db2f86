import { getServerSession } from "next-auth";
import { cache } from "react";
import { getAuthOptions } from "@/lib/auth/next-auth";
import { findSessionUser, type SessionUser } from "@/lib/data/users";

export type { SessionUser } from "@/lib/data/users";

/**
 * The signed-in user from the session cookie, re-read from the database on every request: a changed role,
 * a moved or deactivated member takes effect at once, whatever the cookie says. Null when signed out.
 * Only the cookie counts here; an API key header never makes a session.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(getAuthOptions());
  const userId = session?.user?.userId;
  return userId ? findSessionUser(userId) : null;
});
