"use client";

import { useState } from "react";
import type { InvitationItem } from "@/lib/data/invitations";
import type { RevokeInvitationState } from "@/lib/settings/invitation-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import { EmptyList, ListSection } from "../settings/list-section";
import { SettingsTable } from "../settings/settings-table";

interface Props {
  invitations: (Pick<InvitationItem, "id" | "email" | "role" | "resetsPassword" | "createdBy"> & {
    expiresAt: string;
  })[];
  revokeAction: (previous: RevokeInvitationState, formData: FormData) => Promise<RevokeInvitationState>;
}

const minute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** The organization's pending links, each with Revoke (confirmed in a dialog). Never the links themselves. */
export function InvitationsTable({ invitations, revokeAction }: Props) {
  const [revoking, setRevoking] = useState<{ id: string; email: string }>();
  return (
    <ListSection
      titleId="invitations-title"
      title="Pending links"
      tally={invitations.length > 0 && `${invitations.length} pending`}
    >
      {invitations.length === 0 ? (
        <EmptyList title="No pending links">
          Links you make appear here until they are used, revoked or expire.
        </EmptyList>
      ) : (
        <SettingsTable label="Pending links" columns={["Email", "Role", "Kind", "Expires", "Made by"]} actions>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <th scope="row" style={{ overflowWrap: "anywhere", minWidth: "12rem" }}>
                {invitation.email}
              </th>
              <td>{invitation.role}</td>
              <td>{invitation.resetsPassword ? "Password reset" : "Invitation"}</td>
              <td>{minute(invitation.expiresAt)}</td>
              <td>{invitation.createdBy}</td>
              <td>
                <button
                  type="button"
                  className="button button--ghost-danger"
                  aria-haspopup="dialog"
                  onClick={() => setRevoking({ id: invitation.id, email: invitation.email })}
                >
                  Revoke<span className="visually-hidden"> the link for {invitation.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </SettingsTable>
      )}
      {revoking && (
        <ConfirmDialog
          key={revoking.id}
          idField={{ name: "invitationId", value: revoking.id }}
          title={<>Revoke the link for {revoking.email}?</>}
          wrapTitle
          description="Whoever opens it from now on is told it was revoked, and it sets no password. You can make a new one at any time."
          action={revokeAction}
          submit={{ label: "Revoke link", busy: "Revoking…", className: "button button--danger" }}
          onClose={() => setRevoking(undefined)}
          focusAfterDone="invitations-title"
        />
      )}
    </ListSection>
  );
}
