import { cookies } from "next/headers";
import { completeInvitation, inspectInvitation, LinkRefused } from "@/lib/data/invitations";
import { getEnv, signInUrl } from "@/lib/env";
import { log } from "@/lib/log";

// Completing a one-time link with Google or GitHub (issue 36): the link's page keeps its token in a short-lived,
// HTTP-only cookie while the provider is asked, and next-auth's signIn callback completes the link with the address
// the provider vouches for, which must be the link's. The person then signs in with the provider, without a password.

const LINK_COOKIE = "sundown.link";
const LINK_COOKIE_SECONDS = 15 * 60;

/** Keeps an open link's token for the provider's round trip; false when the link cannot be completed. */
export async function holdLinkForProvider(token: string): Promise<boolean> {
  if ((await inspectInvitation(token)).state !== "open") return false;
  (await cookies()).set(LINK_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: new URL(signInUrl(getEnv())).protocol === "https:",
    path: "/api/auth",
    maxAge: LINK_COOKIE_SECONDS,
  });
  return true;
}

/**
 * In next-auth's signIn callback, for someone the provider vouches for who has no sign-in yet: completes the held
 * link with their address. True when it did (the jwt callback then finds them); false otherwise, changing nothing.
 */
export async function completeHeldLink(verifiedEmail: string): Promise<boolean> {
  const jar = await cookies();
  const token = jar.get(LINK_COOKIE)?.value;
  if (!token) return false;
  jar.delete({ name: LINK_COOKIE, path: "/api/auth" });
  try {
    await completeInvitation({ token, passwordHash: null, verifiedEmail });
    return true;
  } catch (error) {
    if (!(error instanceof LinkRefused)) throw error;
    log("info", "a link was not completed with a provider", { reason: error.code });
    return false;
  }
}
