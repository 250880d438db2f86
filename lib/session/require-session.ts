import { redirect } from "next/navigation";
import { getSessionUser, type SessionUser } from "@/lib/session/session";
import { signInPath } from "@/lib/session/callback-path";

/** For pages: the signed-in user, or a redirect to sign-in that comes back to `returnTo` afterwards. */
export async function requireSession(returnTo: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(signInPath(returnTo));
  return user;
}
