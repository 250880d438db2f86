import type { TeamList } from "@/lib/schemas/team";
import { acme, memberId } from "./example-ids";

/** The example answer the OpenAPI document shows. */
export const teamListExample: TeamList = {
  members: acme.members.map((m, index) => ({
    id: memberId(index),
    name: m.name,
    role: m.role,
    department: m.department,
    is_external: m.isExternal ?? false,
    active: m.active ?? true,
  })),
  count: acme.members.length,
};
