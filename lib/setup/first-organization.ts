import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { invitationLink } from "@/lib/data/invitations";
import { createOrganizationWithFounder } from "@/lib/data/organizations";
import { getEnv, signInUrl } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { sendLinkMail } from "@/lib/mail/link-message";
import { clientAddress } from "@/lib/ratelimit/client-address";
import { createRateLimiter } from "@/lib/ratelimit/policies";
import { emailAddressSchema } from "@/lib/schemas/email-address";
import { organizationSlugSchema } from "@/lib/schemas/organization-slug";
import { organizationNameSchema, personNameSchema } from "@/lib/schemas/visible-name";

// /setup (issue 36): for platforms without a shell, the first organization and its founder, as `sundown orgs create`
// makes them, for whoever knows SUNDOWN_SETUP_TOKEN. The page exists only while the token is set, and makes only
// the first organization (under the creation lock, so two claims at once make one founder). Wrong tokens spend a
// failure budget per address, as sign-in's do.

const SETUP_FAILURES_PER_ADDRESS = 10;
const SETUP_WINDOW_SECONDS = 15 * 60;

const SETUP_FIELDS = ["token", "slug", "name", "founderName", "founderEmail"] as const;
type Field = (typeof SETUP_FIELDS)[number];

export type SetupState =
  | { status: "idle" }
  | { status: "error"; message: string; fieldErrors: Partial<Record<Field, string>>; values: Record<string, string> }
  | { status: "created"; organization: string; email: string; link: string; expiresAt: string; mailed: boolean };

/** Whether /setup exists: only while SUNDOWN_SETUP_TOKEN is set. */
export function setupEnabled(): boolean {
  return Boolean(getEnv().SUNDOWN_SETUP_TOKEN);
}

/** The token compared in constant time (both hashed first, so their lengths say nothing either). */
function tokenMatches(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const input = z.object({
  token: z.string().max(1024),
  slug: organizationSlugSchema,
  name: organizationNameSchema,
  founderName: personNameSchema,
  founderEmail: emailAddressSchema,
});

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

/** Runs one /setup submission: refused (with what was typed, never the token), or the founder's link. */
export async function runSetup(formData: FormData, headers: Headers): Promise<SetupState> {
  const values = Object.fromEntries(
    SETUP_FIELDS.filter((f) => f !== "token").map((f) => [f, text(formData, f).slice(0, 300)]),
  );
  const refused = (message: string, fieldErrors: Partial<Record<Field, string>> = {}): SetupState => ({
    status: "error",
    message,
    fieldErrors,
    values,
  });
  const expected = getEnv().SUNDOWN_SETUP_TOKEN;
  if (!expected) return refused("Setup is switched off: SUNDOWN_SETUP_TOKEN is not set.");
  const limiter = createRateLimiter({
    prefix: "setup:fail",
    limit: SETUP_FAILURES_PER_ADDRESS,
    windowSeconds: SETUP_WINDOW_SECONDS,
  });
  const from = clientAddress(headers) ?? "unknown";
  const reserved = await limiter.limit(from);
  if (!reserved.success) {
    await limiter.release(from, reserved);
    return refused("Too many wrong setup tokens from here. Wait 15 minutes, then try again.");
  }
  if (!tokenMatches(text(formData, "token"), expected)) {
    log("warn", "setup refused: wrong token");
    return refused("That is not the setup token. Copy SUNDOWN_SETUP_TOKEN from the server's settings.", {
      token: "That is not the setup token.",
    });
  }
  await limiter.release(from, reserved);
  const parsed = input.safeParse(Object.fromEntries(SETUP_FIELDS.map((f) => [f, text(formData, f)])));
  if (!parsed.success) {
    const fieldErrors: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path[0] as Field] ??= issue.message;
    return refused("Nothing was created. Fix the fields marked below.", fieldErrors);
  }
  const { slug, name, founderName, founderEmail } = parsed.data;
  try {
    const { organization, invitation } = await createOrganizationWithFounder({
      slug,
      name,
      founderName,
      founderEmail,
      actor: { label: "setup" },
      onlyIfFirst: true,
    });
    const link = invitationLink(new URL(signInUrl(getEnv())).origin, invitation.token);
    const mail = await sendLinkMail({
      to: founderEmail,
      link,
      expiresAt: invitation.expiresAt,
      organizationName: organization.name,
      role: "founder",
      resetsPassword: false,
    });
    log("info", "first organization created at /setup", { organization_id: organization.id });
    return {
      status: "created",
      organization: organization.name,
      email: founderEmail,
      link,
      expiresAt: invitation.expiresAt.toISOString(),
      mailed: mail.sent,
    };
  } catch (error) {
    if (error instanceof ApiError && error.code === "conflict") return refused(error.message);
    throw error;
  }
}
