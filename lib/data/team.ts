import { z } from "zod";
import { teamMemberSchema, type TeamList } from "@/lib/schemas/team";
import { defineRead } from "./organization-read";

/**
 * The organization's roster: founders, then leads, then members (the enum's declared order), each by
 * name. Contact fields are never selected.
 */
export const teamRead = defineRead({
  name: "team",
  sql: (organizationId) => `(
    SELECT coalesce(json_agg(json_build_object(
      'id', m.id, 'name', m.name, 'role', m.role, 'department', m.department,
      'is_external', m.is_external, 'active', m.active
    ) ORDER BY m.role, m.name, m.id), '[]'::json)
    FROM members m WHERE m.organization_id = ${organizationId}
  )`,
  result: z.array(teamMemberSchema),
  toBody: (json): TeamList => {
    const members = json ?? [];
    return { members, count: members.length };
  },
});
