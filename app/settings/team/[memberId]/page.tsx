import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { DeactivateMemberForm, ReactivateMemberForm } from "@/components/team/deactivate-member-form";
import { Absences } from "@/components/team/absences";
import { EditMemberForm } from "@/components/team/edit-member-form";
import { memberValuesOf } from "@/components/team/member-fields";
import { listAbsences } from "@/lib/data/absences";
import { listRoster, listWorkingKeysByCreator } from "@/lib/data/members";
import { getOrganizationSettings } from "@/lib/data/organizations";
import { organizationDay } from "@/lib/data/your-day";
import { memberIdInput } from "@/lib/settings/team-inputs";
import { rolesGrantedBy } from "@/lib/settings/team-roles";
import {
  addAbsenceAction,
  deactivatePersonAction,
  editPersonAction,
  reactivatePersonAction,
  removeAbsenceAction,
} from "../actions";

export const metadata: Metadata = { title: "Person" };

type Params = Promise<{ memberId: string }>;

export default settingsPage<{ params: Params }>(
  "team",
  async ({ user, heading, params }) => {
    // Not an id at all, or not one of this organization's people: the same 404.
    const parsed = memberIdInput.safeParse(await params);
    if (!parsed.success) notFound();
    const [members, keysByCreator, settings] = await Promise.all([
      listRoster(user.organization.id),
      listWorkingKeysByCreator(user.organization.id),
      getOrganizationSettings(user.organization.id),
    ]);
    const member = members.find((m) => m.id === parsed.data.memberId);
    if (!member) notFound();
    const keys = member.userId ? (keysByCreator.get(member.userId) ?? []) : [];
    // A lead sees a founder's details but cannot change them (the actions refuse it too).
    const mayChange = user.role === "founder" || member.role !== "founder";
    const today = organizationDay(new Date(), settings.timeZone).day;
    const absences = (await listAbsences(user.organization.id, today)).filter((a) => a.memberId === member.id);

    return (
      <>
        <p style={{ margin: "0 0 0.75rem" }}>
          <Link href="/settings/team">← The whole team</Link>
        </p>
        <SectionHead title={`${heading}: ${member.name}`}>
          <span className="mono">{member.id}</span> is this person&rsquo;s id, by which report files name them as{" "}
          <code>scope_target_id</code>.
        </SectionHead>
        <div className="stack">
          {mayChange ? (
            <>
              <EditMemberForm
                memberId={member.id}
                stored={memberValuesOf(member)}
                active={member.active}
                action={editPersonAction}
                roles={rolesGrantedBy(user.role)}
              />
              <Absences
                memberId={member.id}
                name={member.name}
                absences={absences}
                add={addAbsenceAction}
                remove={removeAbsenceAction}
              />
              {member.active ? (
                <DeactivateMemberForm
                  memberId={member.id}
                  name={member.name}
                  keys={keys}
                  action={deactivatePersonAction}
                />
              ) : (
                <ReactivateMemberForm memberId={member.id} name={member.name} action={reactivatePersonAction} />
              )}
            </>
          ) : (
            <p className="alert alert--warning">
              {member.name} is a founder: only founders can change or deactivate a founder.
            </p>
          )}
        </div>
      </>
    );
  },
  {
    heading: "Team",
    path: async ({ params }) => `/settings/team/${encodeURIComponent((await params).memberId)}`,
  },
);
