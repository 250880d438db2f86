import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { recordActivity, type Actor } from "./activity";

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
}

export async function getOrganizationSettings(organizationId: string): Promise<OrganizationSettings> {
  const db = await getDb();
  const found = await db.organization.findUnique({
    where: { id: organizationId },
    select: { name: true, timeZone: true },
  });
  if (!found) throw new ApiError("not_found", "No such organization.");
  return found;
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
 * Changes an organization's name and time zone (a name timeZoneSchema has checked; the database must know it too),
 * in one transaction with a line in the activity trail for each that changed. Returns the settings before and after.
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
    const before = await tx.organization.findUnique({
      where: { id: organizationId },
      select: { name: true, timeZone: true },
    });
    if (!before) throw new ApiError("not_found", "No such organization.");
    const after = { ...before, ...changes };
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
    return { ...after, previous: before };
  });
}

/** The trail's kind of subject for the organization's own settings (Settings → Organization shows its lines). */
export const ORGANIZATION_SUBJECT = "organization";
