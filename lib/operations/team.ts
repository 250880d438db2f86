import { teamListSchema, type TeamList } from "@/lib/schemas/team";
import { defineKeyedOperation } from "./operation";
import { activeParameter, roleParameter } from "./parameters";
import { teamListExample } from "./team.example";

// GET /api/v1/team and the list_team tool: the roster, without contact details.

export function renderTeam(team: TeamList): string {
  if (team.count === 0) return "No team members.";
  const lines = team.members.map((m) => {
    const flags = [m.is_external ? "external" : null, m.active ? null : "inactive"].filter(Boolean);
    const department = m.department ?? "no department";
    return `- ${m.name} · ${m.role} · ${department}${flags.length ? ` · ${flags.join(", ")}` : ""} · id ${m.id}`;
  });
  return [`${team.count} member${team.count === 1 ? "" : "s"}:`, ...lines].join("\n");
}

export const team = defineKeyedOperation({
  operationId: "listTeam",
  method: "GET",
  path: "/api/v1/team",
  tag: "Team",
  access: "key",
  scope: "team:read",
  parameters: { role: roleParameter, active: activeParameter },
  output: teamListSchema,
  statuses: [403],
  summary: "List the team",
  description:
    "The roster of the key's organization, optionally only one `role` or only `active=true` (or `false`) members. Email addresses and chat identifiers are never included.",
  brief: "the roster: name, role, department, is_external, active; `role` and `active` filter it",
  returns: "The team roster.",
  tool: {
    name: "list_team",
    title: "List the team roster",
    description:
      "Returns the organization's whole team roster in one answer (no pages): each member's id, name, role (founder, " +
      "lead or member), department (or null), is_external and active; founders first, then leads, then members. Use " +
      "it to find a person's id for list_reports' scope_target_id, or to turn the ids in reports (scope_target_id, " +
      "member_id) into names. Email addresses and chat handles are never included. Optional filters: role (founder, " +
      "lead or member) and active (true: active members only, false: inactive only); without them, everyone.",
    text: renderTeam,
  },
  example: teamListExample,
});
