import { createInvitation, invitationLink } from "@/lib/data/invitations";
import { getDb } from "@/lib/db";
import { getEnv, signInUrl } from "@/lib/env";
import { log } from "@/lib/log";
import { sendLinkMail } from "@/lib/mail/link-message";
import { mailEnabled } from "@/lib/mail/send";
import { accountIdentifier } from "@/lib/ratelimit/account-identifier";
import { clientAddress } from "@/lib/ratelimit/client-address";
import { createRateLimiter } from "@/lib/ratelimit/policies";
import { emailAddressSchema } from "@/lib/schemas/email-address";

// "Forgot password?" (issue 36): only where mail is on, since the link goes only by mail. Every request is answered
// alike, a known address or not, and at once: the lookup, the link and the message happen after the answer, so
// neither the words nor the time tell whether an account exists. Requests spend a budget per client address, as
// sign-in's failures do (lib/session/next-auth.ts), and messages a budget per person, so the form cannot be used to flood
// someone's inbox, from one host or many.

const REQUESTS_PER_ADDRESS = 10;
/** Reset messages to one person per window, whoever asks from wherever: their inbox cannot be flooded from many hosts. */
const MESSAGES_PER_PERSON = 3;
const WINDOW_SECONDS = 15 * 60;

export type ForgotState = { status: "idle" } | { status: "sent"; email: string } | { status: "error"; message: string };

/** Makes and e-mails a reset link for an active person who signs in with this address; nothing for anyone else. */
async function sendResetLink(email: string): Promise<void> {
  const perPerson = createRateLimiter({
    prefix: "reset:to",
    limit: MESSAGES_PER_PERSON,
    windowSeconds: WINDOW_SECONDS,
  });
  if (!(await perPerson.limit(accountIdentifier(email))).success) {
    log("warn", "password reset messages to one address rate limited");
    return;
  }
  const db = await getDb();
  const user = await db.user.findUnique({
    where: { email },
    select: { member: { select: { role: true, active: true, organization: { select: { id: true, name: true } } } } },
  });
  if (!user?.member.active) return;
  const created = await createInvitation({
    organizationId: user.member.organization.id,
    email,
    role: user.member.role,
    actor: { label: "forgot password" },
  });
  await sendLinkMail({
    to: email,
    link: invitationLink(new URL(signInUrl(getEnv())).origin, created.token),
    expiresAt: created.expiresAt,
    organizationName: user.member.organization.name,
    role: user.member.role,
    resetsPassword: true,
  });
}

/** One "Forgot password?" request; `settled` (for tests) resolves once the link, if any, has been sent. */
export async function requestPasswordReset(
  formData: FormData,
  headers: Headers,
): Promise<{ state: ForgotState; settled: Promise<void> }> {
  const done = Promise.resolve();
  if (!mailEnabled()) return { state: { status: "error", message: "Mail is off on this Sundown." }, settled: done };
  const parsed = emailAddressSchema.safeParse(formData.get("email"));
  if (!parsed.success) return { state: { status: "error", message: parsed.error.issues[0]!.message }, settled: done };
  const limiter = createRateLimiter({ prefix: "reset:ip", limit: REQUESTS_PER_ADDRESS, windowSeconds: WINDOW_SECONDS });
  if (!(await limiter.limit(clientAddress(headers) ?? "unknown")).success) {
    log("warn", "password reset rate limited");
    return {
      state: { status: "error", message: "Too many requests from here. Wait 15 minutes, then try again." },
      settled: done,
    };
  }
  const settled = sendResetLink(parsed.data).catch((error: unknown) =>
    log("warn", "could not make a password reset link", { error: (error as Error).message }),
  );
  return { state: { status: "sent", email: parsed.data }, settled };
}
