import type { SessionUser } from "@/lib/data/users";
import { ACCESS, mayOpen, settingsSection, type SectionId } from "./sections";

/** Why a settings section refused someone, in the words its forms show. */
export class SectionAccessRefused extends Error {
  constructor(
    readonly reason: "signed_out" | "forbidden",
    message: string,
  ) {
    super(message);
    this.name = "SectionAccessRefused";
  }
}

/**
 * The signed-in user, if the section admits their role (founders and leads for API keys and webhooks); else why
 * not. Every settings action starts here (lib/settings/action.ts), with the user as the database says now.
 */
export function requireSectionAccess(user: SessionUser | null, id: SectionId): SessionUser {
  const section = settingsSection(id);
  if (!user)
    throw new SectionAccessRefused("signed_out", `Your session has ended. Sign in again to ${section.manage}.`);
  if (!mayOpen(user, section)) {
    throw new SectionAccessRefused("forbidden", `Only ${ACCESS[section.access].who} can ${section.manage}.`);
  }
  return user;
}
