import type { User } from "next-auth";
import { z } from "zod";
import { hashPassword } from "@/lib/auth/password";
import { PASSWORD_MAX_LENGTH, passwordProblem } from "@/lib/auth/password-strength";
import { completeInvitation, inspectInvitation, LINK_REFUSAL, LinkRefused } from "@/lib/data/invitations";
import { ApiError } from "@/lib/errors";
import { personNameSchema } from "@/lib/schemas/visible-name";

// Completing a one-time link is a sign-in (issue 36): next-auth's "invitation" credentials provider calls this with
// the link's token and the new password, and a user it returns gets a session cookie at once, by next-auth's own
// path, exactly as a password sign-in does. A refusal is an Error whose message is a code next-auth passes back
// (`?error=` or signIn()'s `error`): lib/session/sign-in-errors.ts words it.

/** The codes a link's completion may fail with, besides LinkRefused's. */
const WEAK_PASSWORD = "WeakPassword";
const NAME_REQUIRED = "NameRequired";

const input = z.object({
  token: z.string().max(200),
  password: z.string().max(PASSWORD_MAX_LENGTH),
  name: z.string().max(400).optional(),
});

/** The user a completed link signs in, or an Error with a code; the link is used up only on success. */
export async function authorizeInvitation(credentials: unknown): Promise<User> {
  const parsed = input.safeParse(credentials);
  if (!parsed.success) throw new Error("LinkUnknown");
  const { token, password } = parsed.data;
  const view = await inspectInvitation(token);
  if (view.state !== "open") throw new Error(LINK_REFUSAL[view.state]);
  if (!view.open) throw new Error(LINK_REFUSAL.unknown);
  let name: string | undefined;
  if (view.open.name === null) {
    const named = personNameSchema.safeParse(parsed.data.name ?? "");
    if (!named.success) throw new Error(NAME_REQUIRED);
    name = named.data;
  }
  const personal = [
    view.open.email,
    view.open.email.split("@")[0]!,
    view.open.organizationName,
    name ?? view.open.name ?? "",
    "sundown",
  ];
  if (passwordProblem(password, personal)) throw new Error(WEAK_PASSWORD);
  try {
    const user = await completeInvitation({ token, passwordHash: await hashPassword(password), name });
    return {
      id: user.userId,
      name: user.name,
      email: user.email,
      userId: user.userId,
      memberId: user.memberId,
      organizationId: user.organizationId,
      role: user.role,
    };
  } catch (error) {
    if (error instanceof LinkRefused) throw new Error(error.code);
    if (error instanceof ApiError && error.code === "invalid_parameter") throw new Error(NAME_REQUIRED);
    throw error;
  }
}
