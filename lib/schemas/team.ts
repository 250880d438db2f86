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
  // No description of its own here: one would render the component differently as the member.updated webhook's
  // body (an input to the OpenAPI generator) and as an answer, and split it in two (TeamMember, TeamMemberOutput).
  .meta({ id: "TeamMember" });

export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamListSchema = z
  .object({
    members: z.array(teamMemberSchema).meta({
      description: "The members of the team, each with no contact detail: those are never included.",
    }),
    count: z.int().meta({ description: "Number of members in this response." }),
  })
  .meta({ id: "TeamList" });

export type TeamList = z.infer<typeof teamListSchema>;
