import type { Metadata } from "next";
import Link from "next/link";
import { ActivityLog } from "@/components/settings/activity-log";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { AddMemberForm } from "@/components/team/add-member-form";
import { ImportRosterForm } from "@/components/team/import-roster-form";
import { RosterTable } from "@/components/team/roster-table";
import { listActivity } from "@/lib/data/activity";
import { listAbsences } from "@/lib/data/absences";
import { listRoster } from "@/lib/data/members";
import { getOrganizationSettings } from "@/lib/data/organizations";
import { organizationDay } from "@/lib/data/your-day";
import { settingsSection } from "@/lib/settings/sections";
import { rolesGrantedBy, TEAM_ACTIVITY_VERBS, TEAM_SUBJECTS } from "@/lib/settings/team-roles";
import { addPersonAction, importRosterAction } from "./actions";

export const metadata: Metadata = { title: settingsSection("team").label };

export default settingsPage("team", async ({ user, heading }) => {
  const [members, lines, { timeZone }] = await Promise.all([
    listRoster(user.organization.id),
    listActivity(user.organization.id, TEAM_SUBJECTS),
    getOrganizationSettings(user.organization.id),
  ]);
  // Who is away today, in the organization's time zone: the roster says "away", with the dates.
  const today = organizationDay(new Date(), timeZone).day;
  const away = new Map(
    (await listAbsences(user.organization.id, today))
      .filter((absence) => absence.firstDay <= today)
      .map((absence) => [absence.memberId, absence]),
  );
  return (
    <>
      <SectionHead title={heading}>
        {user.organization.name}&rsquo;s roster: who reports name, and who can sign in. Agents read it with a key that
        has <code>team:read</code>, names and roles only; the contact details kept here are masked in report text and
        never served. Leads manage members and leads; only founders grant the founder role.{" "}
        <Link href="/settings/team/invitations">Invitations</Link>
      </SectionHead>
      <div className="stack">
        <RosterTable members={members} away={away} />
        <AddMemberForm action={addPersonAction} roles={rolesGrantedBy(user.role)} />
        <ImportRosterForm action={importRosterAction} />
        <ActivityLog
          lines={lines}
          verbs={TEAM_ACTIVITY_VERBS}
          summary="Who changed the roster, and when."
          empty="No change to the roster yet."
        />
      </div>
    </>
  );
});
