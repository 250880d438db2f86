import Link from "next/link";
import type { StoredAbsence } from "@/lib/data/absences";
import type { RosterMember } from "@/lib/data/members";
import { SettingsTable } from "../settings/settings-table";

/**
 * The roster as founders and leads see it: everyone, active or not, with a link to change each, and who is away
 * today (by `away`, each person's absence covering today), with its dates.
 */
export function RosterTable({ members, away }: { members: RosterMember[]; away: Map<string, StoredAbsence> }) {
  return (
    <section className="card" aria-labelledby="roster-title">
      <h2 id="roster-title">People ({members.length})</h2>
      <SettingsTable label="People" columns={["Name", "Role", "Department", "Status"]} actions>
        {members.map((member) => (
          <tr key={member.id}>
            <td>
              <strong>{member.name}</strong>
              {member.email && <div className="muted mono">{member.email}</div>}
            </td>
            <td>
              {member.role}
              {member.external && <div className="muted">external</div>}
            </td>
            <td>{member.department ?? <span className="muted">—</span>}</td>
            <td>
              {member.active ? "Active" : <span className="badge badge--warning">Deactivated</span>}
              {away.has(member.id) && (
                <div>
                  <span className="badge">away</span>{" "}
                  <span className="muted">
                    {away.get(member.id)!.firstDay} to {away.get(member.id)!.lastDay}
                  </span>
                </div>
              )}
            </td>
            <td>
              <Link href={`/settings/team/${member.id}`} className="button button--secondary button--small">
                Edit<span className="visually-hidden"> {member.name}</span>
              </Link>
            </td>
          </tr>
        ))}
      </SettingsTable>
    </section>
  );
}
