import { getDb } from "@/lib/db";
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
