import type { Metadata } from "next";
import Link from "next/link";
import { ActivityLog } from "@/components/settings/activity-log";
import { CreateInvitationForm } from "@/components/invitations/create-invitation-form";
import { InvitationsTable } from "@/components/invitations/invitations-table";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { listActivity } from "@/lib/data/activity";
import { listInvitations } from "@/lib/data/invitations";
import { mailEnabled } from "@/lib/mail/send";
import { grantableRoles } from "@/lib/schemas/role-rank";
import { createInvitation, revokeInvitation } from "./actions";

export const metadata: Metadata = { title: "Invitations" };

export default settingsPage(
  "team",
  async ({ user, heading }) => {
    const [pending, trail] = await Promise.all([
      listInvitations(user.organization.id, "pending"),
      listActivity(user.organization.id, ["invitation"]),
    ]);
    const mailOn = mailEnabled();
    return (
      <>
        <SectionHead title={heading}>
          A one-time link lets someone set their password and sign in to {user.organization.name}: bound to one e-mail
          address and role, it works once, for 7 days. For someone who signs in already, it resets their password.{" "}
          {mailOn
            ? "Links are e-mailed, and shown here once to copy."
            : "Mail is off here: copy each link and send it yourself."}{" "}
          <Link href="/settings/team">Back to the team</Link>
        </SectionHead>
        <div className="stack">
          <CreateInvitationForm action={createInvitation} roles={grantableRoles(user.role)} mailOn={mailOn} />
          <InvitationsTable
            invitations={pending.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString() }))}
            revokeAction={revokeInvitation}
          />
          <ActivityLog
            lines={trail}
            verbs={{
              created: "invited",
              "password reset link created": "made a password reset link for",
              revoked: "revoked the link for",
              accepted: "joined with the link for",
              "password reset": "set a new password with the link for",
            }}
            summary="Links made, revoked and used"
            empty="No links have been made yet."
          />
        </div>
      </>
    );
  },
  { heading: "Invitations", path: async () => "/settings/team/invitations" },
);
