import type { MemberRole } from "./team";

// Roles in order of what they may do: nobody hands out a role above their own (issue 36).
const RANK: Record<MemberRole, number> = { member: 1, lead: 2, founder: 3 };

/** Whether someone with role `holder` may grant `role` (invite to it, or reset the password of someone holding it). */
export function mayGrant(holder: MemberRole, role: MemberRole): boolean {
  return RANK[role] <= RANK[holder];
}

/** The roles `holder` may grant, highest first: the invitation form's choices. */
export function grantableRoles(holder: MemberRole): MemberRole[] {
  return (["founder", "lead", "member"] as const).filter((role) => mayGrant(holder, role));
}
