import { getDb } from "@/lib/db";
import type { TeamList } from "@/lib/schemas/team";

const ROLE_ORDER = { founder: 0, lead: 1, member: 2 } as const;

/** The organization's roster: founders, then leads, then members, each by name. Contact fields are never selected. */
export async function listTeam(organizationId: string): Promise<TeamList> {
  const db = await getDb();
  const rows = await db.member.findMany({
    where: { organizationId },
    select: { id: true, name: true, role: true, department: true, isExternal: true, active: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const members = rows
    .map((m) => ({
      id: m.id,
      name: m.name,
      role: m.role,
      department: m.department,
      is_external: m.isExternal,
      active: m.active,
    }))
    .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]);
  return { members, count: members.length };
}
