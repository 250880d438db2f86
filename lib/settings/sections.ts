import type { SessionUser } from "@/lib/data/users";
import type { MemberRole } from "@/lib/schemas/team";

// The settings sections, declared once: the settings navigation, /settings's first page, every page's refusal and
// every action's role check read them (docs/architecture.md#adding-a-section).

/** Who may open a section and make its changes: the roles each level admits, and how a refusal names them. */
export const ACCESS = {
  everyone: { roles: ["founder", "lead", "member"], who: "everyone", someone: "anyone" },
  foundersAndLeads: { roles: ["founder", "lead"], who: "founders and leads", someone: "a founder or lead" },
  founders: { roles: ["founder"], who: "founders", someone: "a founder" },
} as const satisfies Record<string, { roles: readonly MemberRole[]; who: string; someone: string }>;

type Access = keyof typeof ACCESS;

/** The settings as a whole: the site header's link, which leads to the first section the user may open. */
export const SETTINGS_HOME = "/settings";

export interface SettingsSection {
  /** The section's path segment under /settings, and its name in code. */
  id: string;
  /** Its name in the navigation, and its page's heading. */
  label: string;
  href: string;
  access: Access;
  /** Who may make its changes, when fewer than may open it (the others see it as it is). */
  change?: Access;
  /** What the admitted do here, after "Only founders and leads …" and "Sign in again to …": "manage API keys". */
  manage: string;
  /** What the page tells someone it refuses, after "You are signed in as a member of Acme.". */
  refusal: {
    /** Why the rule is what it is. */
    why: string;
    /** The question "Ask a founder or lead of Acme." answers, e.g. "Need a key for a tool?". */
    need?: string;
    /** What the API docs, linked from the refusal, say about it: "describe what a key can do". */
    docs?: string;
  };
}

export const SETTINGS_SECTIONS = [
  {
    id: "api-keys",
    label: "API keys",
    href: "/settings/api-keys",
    access: "foundersAndLeads",
    manage: "manage API keys",
    refusal: {
      why: "API keys give agents and scripts read access to the whole organization’s reports and roster, so only its founders and leads can create or revoke them.",
      need: "Need a key for a tool?",
      docs: "describe what a key can do",
    },
  },
  {
    id: "webhooks",
    label: "Webhooks",
    href: "/settings/webhooks",
    access: "foundersAndLeads",
    manage: "manage webhooks",
    refusal: {
      why: "A webhook endpoint receives every report of the whole organization as it is published, so only its founders and leads can add or change one.",
      need: "Need events for a tool?",
      docs: "describe what an endpoint receives",
    },
  },
  {
    id: "team",
    label: "Team",
    href: "/settings/team",
    access: "foundersAndLeads",
    manage: "manage the team",
    refusal: {
      why: "The roster holds everyone’s role and contact details, so only its founders and leads can add, change or invite people.",
      need: "Need to change someone’s details?",
      docs: "describe what the roster shows",
    },
  },
  {
    id: "reports",
    label: "Reports",
    href: "/settings/reports",
    access: "foundersAndLeads",
    manage: "manage reports",
    refusal: {
      why: "Reports can be deleted and imported here, changing what every agent and endpoint of the organization reads, so only its founders and leads can do it.",
      need: "Need a report corrected?",
    },
  },
  {
    id: "ingest-tokens",
    label: "Ingest tokens",
    href: "/settings/ingest-tokens",
    access: "foundersAndLeads",
    manage: "manage ingest tokens",
    refusal: {
      why: "An ingest token lets a tool send reports into the whole organization, so only its founders and leads can create, roll or revoke one.",
      need: "Need a tool to send reports in?",
    },
  },
  {
    id: "organization",
    label: "Organization",
    href: "/settings/organization",
    access: "foundersAndLeads",
    change: "founders",
    manage: "change the organization’s settings",
    refusal: {
      why: "The organization’s name, time zone, working days and KPI targets decide how every surface names it, which day a report belongs to and when the day’s reports are written, so only its founders can change them; its leads can see them.",
      need: "Need the time zone or the cutoff changed?",
    },
  },
] as const satisfies readonly SettingsSection[];

/**
 * "Your day" (app/day): everyone's own update, outside the settings navigation but on the same kit (its pages'
 * session handling, its actions' pipeline), and where a member lands from /settings, none of whose sections admits
 * them.
 */
export const YOUR_DAY = {
  id: "day",
  label: "Your day",
  href: "/day",
  access: "everyone",
  manage: "write your day’s update",
  refusal: { why: "Everyone writes their own day." },
} as const satisfies SettingsSection;

export type SectionId = (typeof SETTINGS_SECTIONS)[number]["id"] | typeof YOUR_DAY.id;

export function settingsSection(id: SectionId): SettingsSection {
  return id === YOUR_DAY.id ? YOUR_DAY : SETTINGS_SECTIONS.find((section) => section.id === id)!;
}

/** Whether the user's role is one the section admits. */
export function mayOpen(user: SessionUser, section: SettingsSection): boolean {
  return (ACCESS[section.access].roles as readonly MemberRole[]).includes(user.role);
}

/** Whether the user's role may make the section's changes (a lead sees the organization's settings, unchanged). */
export function mayChange(user: SessionUser, section: SettingsSection): boolean {
  return (ACCESS[section.change ?? section.access].roles as readonly MemberRole[]).includes(user.role);
}

/** The sections the user may open, in the navigation's order. */
export function sectionsFor(user: SessionUser): SettingsSection[] {
  return SETTINGS_SECTIONS.filter((section) => mayOpen(user, section));
}

/** Where /settings leads: the first section the user may open, else their day (a member opens no section). */
export function firstSectionFor(user: SessionUser): SettingsSection {
  return sectionsFor(user)[0] ?? YOUR_DAY;
}
