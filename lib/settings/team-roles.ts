import type { MemberRole } from "@/lib/schemas/team";

// Settings → Team's words and choices that depend on who is looking.

/** The roles a founder or lead may give: a lead gives no founder role (lib/data/member-writes.ts refuses it too). */
export function rolesGrantedBy(role: MemberRole): readonly MemberRole[] {
  return role === "founder" ? ["member", "lead", "founder"] : ["member", "lead"];
}

/** The kinds of subject of the team's activity trail (lib/data/member-writes.ts, lib/data/member-import.ts). */
export const TEAM_SUBJECTS = ["member", "roster"] as const;

/** How each action of the trail reads after who did it. */
export const TEAM_ACTIVITY_VERBS = {
  added: "added",
  updated: "changed",
  deactivated: "deactivated",
  reactivated: "reactivated",
  "keys revoked": "revoked the keys of",
  imported: "imported",
  "absence added": "set an absence of",
  "absence removed": "removed an absence of",
};
