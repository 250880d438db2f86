import { getToken } from "next-auth/jwt";
import { cookies } from "next/headers";
import { cache } from "react";
import { getAuthOptions, sessionExpiry } from "@/lib/session/next-auth";
import { isSessionEnded } from "@/lib/data/ended-sessions";
import { findSessionUser, type SessionUser } from "@/lib/data/users";

export type { SessionUser } from "@/lib/data/users";

/**
 * The signed-in user behind a request's cookies, re-read from the database every time: a changed role, a
 * moved or deactivated member, a signed-out session takes effect at once, whatever the cookie says. Null
 * when signed out. Only the cookie counts here; an API key header never makes a session.
 */
export async function sessionUserFromCookies(
  requestCookies: Record<string, string>,
  now = new Date(),
): Promise<SessionUser | null> {
  // Options first: building them sets NEXTAUTH_URL, which decides the cookie's name (__Secure- on https).
  const { secret } = getAuthOptions();
  const token = await getToken({ req: { cookies: requestCookies, headers: {} } as never, secret });
  const { userId, sessionId, signedInAt } = token ?? {};
  // Cookies issued before sessions had ids are refused: their holders sign in once more.
  if (!userId || !sessionId || signedInAt === undefined) return null;
  if (sessionExpiry({ sessionId, signedInAt }) <= now) return null;
  const [user, ended] = await Promise.all([findSessionUser(userId), isSessionEnded(sessionId)]);
  return ended ? null : user;
}

/** The signed-in user of the current request (pages, server actions), once per request. */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const jar = await cookies();
  return sessionUserFromCookies(Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])));
});
