import { z } from "zod";
import { uuid } from "./common";

const MEMBER_ROLES = ["founder", "lead", "member"] as const;
export const memberRoleSchema = z.enum(MEMBER_ROLES);
export type MemberRole = z.infer<typeof memberRoleSchema>;

export const teamMemberSchema = z
  .object({
    id: uuid,
    name: z.string(),
    role: memberRoleSchema,
    department: z.string().nullable(),
    is_external: z.boolean(),
    active: z.boolean(),
  })
  .meta({ id: "TeamMember", description: "A member of the team. Contact details are never included." });

export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamListSchema = z
  .object({
    members: z.array(teamMemberSchema),
    count: z.int().meta({ description: "Number of members in this response." }),
  })
  .meta({ id: "TeamList" });

export type TeamList = z.infer<typeof teamListSchema>;
