import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { recordActivity, type Actor } from "./activity";
import { insertInvitation, type CreatedInvitation } from "./invitations";

export interface OrganizationRef {
  id: string;
  slug: string;
  name: string;
}

export async function listOrganizations(): Promise<OrganizationRef[]> {
  const db = await getDb();
  return db.organization.findMany({ select: { id: true, slug: true, name: true }, orderBy: { slug: "asc" } });
}

/** Finds an organization by slug or id. */
export async function findOrganization(slugOrId: string): Promise<OrganizationRef | null> {
  const db = await getDb();
  const where = UUID_SHAPE.test(slugOrId) ? { id: slugOrId.toLowerCase() } : { slug: slugOrId };
  return db.organization.findUnique({ where, select: { id: true, slug: true, name: true } });
}

/** What Settings → Organization shows and changes. */
export interface OrganizationSettings {
  name: string;
  timeZone: string;
  /** When a working day's reports are written: "HH:MM" in timeZone. */
  cutoffTime: string;
  /** The working days, as ISO weekdays (1 = Monday … 7 = Sunday), in order. */
  workingDays: number[];
}

const SETTINGS_SELECT = { name: true, timeZone: true, cutoffTime: true, workingDays: true } as const;

export async function getOrganizationSettings(organizationId: string): Promise<OrganizationSettings> {
  const db = await getDb();
  const found = await db.organization.findUnique({ where: { id: organizationId }, select: SETTINGS_SELECT });
  if (!found) throw new ApiError("not_found", "No such organization.");
  return { ...found, workingDays: [...found.workingDays].sort((a, b) => a - b) };
}

/**
 * Sets an organization's time zone (a name timeZoneSchema has checked against the runtime's Intl list), which the
 * database must know as well: its days will be counted there in SQL. Returns the zone it replaced.
 */
export async function setOrganizationTimeZone(
  organizationId: string,
  timeZone: string,
  actor: Actor,
): Promise<{ timeZone: string; previous: string }> {
  const { timeZone: set, previous } = await updateOrganizationSettings(organizationId, { timeZone }, actor);
  return { timeZone: set, previous: previous.timeZone };
}

/**
 * Changes an organization's name, time zone (a name timeZoneSchema has checked; the database must know it too),
 * cutoff and working days (checked by the database as well), in one transaction with a line in the activity trail
 * for each that changed. Returns the settings before and after.
 */
export async function updateOrganizationSettings(
  organizationId: string,
  changes: Partial<OrganizationSettings>,
  actor: Actor,
): Promise<OrganizationSettings & { previous: OrganizationSettings }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    if (changes.timeZone !== undefined) {
      const [{ known }] = await tx.$queryRaw<{ known: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${changes.timeZone}) AS known`;
      if (!known) {
        throw new ApiError(
          "invalid_parameter",
          `The database does not know the time zone ${changes.timeZone}; update its time zone data, or choose another name.`,
        );
      }
    }
    const found = await tx.organization.findUnique({ where: { id: organizationId }, select: SETTINGS_SELECT });
    if (!found) throw new ApiError("not_found", "No such organization.");
    const before = { ...found, workingDays: [...found.workingDays].sort((a, b) => a - b) };
    const after = {
      ...before,
      ...changes,
      workingDays: [...new Set(changes.workingDays ?? before.workingDays)].sort((a, b) => a - b),
    };
    await tx.organization.update({ where: { id: organizationId }, data: after, select: { id: true } });
    const subject = { type: ORGANIZATION_SUBJECT, id: organizationId, label: after.name };
    if (after.name !== before.name) {
      await recordActivity(tx, organizationId, actor, {
        subject,
        action: "renamed",
        detail: { from: before.name, to: after.name },
      });
    }
    if (after.timeZone !== before.timeZone) {
      await recordActivity(tx, organizationId, actor, {
        subject,
        action: "time_zone_changed",
        detail: { from: before.timeZone, to: after.timeZone },
      });
    }
    if (after.cutoffTime !== before.cutoffTime) {
      await recordActivity(tx, organizationId, actor, {
        subject,
        action: "cutoff_changed",
        detail: { from: before.cutoffTime, to: after.cutoffTime },
      });
    }
    if (after.workingDays.join() !== before.workingDays.join()) {
      await recordActivity(tx, organizationId, actor, {
        subject,
        action: "working_days_changed",
        detail: { from: weekdaysText(before.workingDays), to: weekdaysText(after.workingDays) },
      });
    }
    return { ...after, previous: before };
  });
}

const WEEKDAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** ISO weekday names, 1 = Monday. */
function weekdayName(day: number): string {
  return WEEKDAY_NAMES[day - 1] ?? String(day);
}

/** Working days as people say them: "Mon–Fri" for a run of three or more, "Mon, Wed, Fri" otherwise. */
export function weekdaysText(days: number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const day of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  return runs
    .flatMap((run) =>
      run.length >= 3 ? [`${weekdayName(run[0]!)}–${weekdayName(run.at(-1)!)}`] : run.map(weekdayName),
    )
    .join(", ");
}

// Organizations are made one at a time, under one transaction-level advisory lock (two int4 keys, as the report
// import's: lib/data/report-identity.ts), so that two `orgs create` (or /setup) at once cannot both pass the checks.
const CREATE_LOCK_CLASS = 36_001;

export interface NewOrganization {
  slug: string;
  name: string;
  founderEmail: string;
  founderName: string;
  actor: Actor;
  /** /setup: only while no organization exists, so that one claim makes one founder. */
  onlyIfFirst?: boolean;
}

/**
 * Creates an organization, its founder's roster entry and the founder's one-time link, in one transaction under
 * the creation lock. An existing slug is refused (conflict), so is a founder address that already signs in, and
 * with `onlyIfFirst` any organization already there.
 */
export async function createOrganizationWithFounder(
  input: NewOrganization,
): Promise<{ organization: OrganizationRef; member: { id: string; name: string }; invitation: CreatedInvitation }> {
  const db = await getDb();
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CREATE_LOCK_CLASS}::int, 0)`;
      if (input.onlyIfFirst && (await tx.organization.count()) > 0) {
        throw new ApiError("conflict", "Sundown is already set up: sign in, or ask a founder for a link.");
      }
      if (await tx.organization.findUnique({ where: { slug: input.slug }, select: { id: true } })) {
        throw new ApiError("conflict", `An organization with the slug ${input.slug} already exists; choose another.`);
      }
      if (await tx.user.findUnique({ where: { email: input.founderEmail }, select: { id: true } })) {
        throw new ApiError(
          "conflict",
          `${input.founderEmail} already signs in to an organization; one address signs in to one.`,
        );
      }
      const organization = await tx.organization.create({
        data: { slug: input.slug, name: input.name },
        select: { id: true, slug: true, name: true },
      });
      const member = await tx.member.create({
        data: {
          organizationId: organization.id,
          name: input.founderName,
          role: "founder",
          email: input.founderEmail,
        },
        select: { id: true, name: true },
      });
      await recordActivity(tx, organization.id, input.actor, {
        subject: { type: "organization", id: organization.id, label: organization.name },
        action: "created",
        detail: { slug: organization.slug },
      });
      await recordActivity(tx, organization.id, input.actor, {
        subject: { type: "member", id: member.id, label: member.name },
        action: "created",
        detail: { role: "founder" },
      });
      const invitation = await insertInvitation(tx, {
        organizationId: organization.id,
        email: input.founderEmail,
        role: "founder",
        actor: input.actor,
      });
      return { organization, member, invitation };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** Each organization, with how many of its active founders can sign in (`sundown doctor`). */
export async function countSigningInFounders(): Promise<{ slug: string; founders: number }[]> {
  const db = await getDb();
  const rows = await db.organization.findMany({
    select: {
      slug: true,
      _count: { select: { members: { where: { role: "founder", active: true, user: { isNot: null } } } } },
    },
    orderBy: { slug: "asc" },
  });
  return rows.map((r) => ({ slug: r.slug, founders: r._count.members }));
}

/** The trail's kind of subject for the organization's own settings (Settings → Organization shows its lines). */
export const ORGANIZATION_SUBJECT = "organization";
