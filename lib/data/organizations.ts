import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { UUID_SHAPE } from "@/lib/schemas/common";

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

/**
 * Sets an organization's time zone (a name timeZoneSchema has checked against the runtime's Intl list), which the
 * database must know as well: its days will be counted there in SQL. Returns the zone it replaced.
 */
export async function setOrganizationTimeZone(
  organizationId: string,
  timeZone: string,
): Promise<{ timeZone: string; previous: string }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const [{ known }] = await tx.$queryRaw<{ known: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${timeZone}) AS known`;
    if (!known) {
      throw new ApiError(
        "invalid_parameter",
        `The database does not know the time zone ${timeZone}; update its time zone data, or choose another name.`,
      );
    }
    const before = await tx.organization.findUnique({ where: { id: organizationId }, select: { timeZone: true } });
    if (!before) throw new ApiError("not_found", "No such organization.");
    await tx.organization.update({ where: { id: organizationId }, data: { timeZone }, select: { id: true } });
    return { timeZone, previous: before.timeZone };
  });
}
