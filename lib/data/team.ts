import { z } from "zod";
import { teamMemberSchema, type MemberRole, type TeamList } from "@/lib/schemas/team";
import { withoutInvisibles } from "@/lib/text/invisible-characters";
import { defineRead, type Placeholder } from "./organization-read";

/**
 * The organization's roster, optionally only one role or only active (or inactive) members: founders, then
 * leads, then members (the enum's declared order), each by name. Contact fields are never selected; names and
 * departments, written by people like report text, are served without invisible characters as report text is.
 */
const rosterRead = defineRead({
  name: "team",
  sql: (organizationId, role: Placeholder<MemberRole> | undefined, active: Placeholder<boolean> | undefined) => {
    const where = [`m.organization_id = ${organizationId}`];
    if (role) where.push(`m.role = ${role}::member_role`);
    if (active) where.push(`m.active = ${active}::boolean`);
    return `(
    SELECT coalesce(json_agg(json_build_object(
      'id', m.id, 'name', m.name, 'role', m.role, 'department', m.department,
      'is_external', m.is_external, 'active', m.active
    ) ORDER BY m.role, m.name, m.id), '[]'::json)
    FROM members m WHERE ${where.join(" AND ")}
  )`;
  },
  result: z.array(teamMemberSchema),
  toBody: (json): TeamList => {
    const members = (json ?? []).map((member) => ({
      ...member,
      name: withoutInvisibles(member.name),
      department: member.department === null ? null : withoutInvisibles(member.department),
    }));
    return { members, count: members.length };
  },
});

/** The roster read, narrowed to `role` and to `active` (or inactive) members when given. */
export function teamRead({ role, active }: { role?: MemberRole; active?: boolean } = {}) {
  return rosterRead.with(role, active);
}
