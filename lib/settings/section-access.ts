import type { SessionUser } from "@/lib/data/users";
import { ACCESS, mayChange, settingsSection, type SectionId } from "./sections";

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
 * The signed-in user, if the section lets their role make its changes (founders and leads for API keys and webhooks); else why
 * not. Every settings action starts here (lib/settings/action.ts), with the user as the database says now.
 */
export function requireSectionAccess(user: SessionUser | null, id: SectionId): SessionUser {
  const section = settingsSection(id);
  if (!user)
    throw new SectionAccessRefused("signed_out", `Your session has ended. Sign in again to ${section.manage}.`);
  if (!mayChange(user, section)) {
    throw new SectionAccessRefused(
      "forbidden",
      `Only ${ACCESS[section.change ?? section.access].who} can ${section.manage}.`,
    );
  }
  return user;
}
