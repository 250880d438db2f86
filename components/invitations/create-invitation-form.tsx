"use client";

import type { MemberRole } from "@/lib/schemas/team";
import type { CreateInvitationState, InvitationField } from "@/lib/settings/invitation-actions";
import { CreateForm } from "../settings/create-form";
import { OneTimeSecret } from "../settings/one-time-secret";
import { TextField } from "../settings/text-field";

interface Props {
  action: (previous: CreateInvitationState, formData: FormData) => Promise<CreateInvitationState>;
  /** The roles the inviter may grant: their own and below. */
  roles: MemberRole[];
  mailOn: boolean;
}

const FIELD_IDS: Record<InvitationField, string> = { email: "invitation-email", role: "invitation-role" };

const MAIL_NOTE = {
  sent: "It was also e-mailed to them.",
  failed: "E-mailing it failed, so send it yourself: the link works all the same.",
  "mail off": "Mail is off on this Sundown, so send it yourself.",
} as const;

export function CreateInvitationForm({ action, roles, mailOn }: Props) {
  return (
    <CreateForm
      title="Invite someone"
      titleId="create-invitation-title"
      action={action}
      createdId={({ link }) => link.id}
      created={({ link }) => (
        <OneTimeSecret
          key={link.id}
          title={link.resetsPassword ? "Password reset link made" : "Invitation made"}
          warning={
            <>
              Copy the link now: it is shown only this once and works once, for {link.email} only, until{" "}
              {link.expiresAt.slice(0, 16).replace("T", " ")} UTC. {MAIL_NOTE[link.mail]}
            </>
          }
          label={`Link for ${link.email} (${link.role})`}
          secret={link.link}
          noun="link"
        />
      )}
      fieldIds={FIELD_IDS}
      submit={{ label: "Make link", busy: "Making…" }}
    >
      {({ values, errors }) => (
        <>
          <TextField
            id={FIELD_IDS.email}
            name="email"
            label="Email"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            placeholder="maya@example.com"
            defaultValue={values?.email ?? ""}
            hint={
              mailOn
                ? "Only this address can use the link; it is e-mailed there, and shown here once to copy."
                : "Only this address can use the link. Mail is off on this Sundown: the link is shown here once, to send yourself."
            }
            error={errors.email}
          />
          <div className="field">
            <label htmlFor={FIELD_IDS.role}>Role</label>
            <select
              id={FIELD_IDS.role}
              name="role"
              defaultValue={values?.role || roles[roles.length - 1]}
              aria-invalid={errors.role ? true : undefined}
              aria-describedby={errors.role ? `${FIELD_IDS.role}-error` : `${FIELD_IDS.role}-hint`}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {role[0]!.toUpperCase() + role.slice(1)}
                </option>
              ))}
            </select>
            <p id={`${FIELD_IDS.role}-hint`} className="hint">
              Up to your own role. For someone who signs in already, the link resets their password.
            </p>
            {errors.role && (
              <p id={`${FIELD_IDS.role}-error`} className="field-error">
                {errors.role}
              </p>
            )}
          </div>
        </>
      )}
    </CreateForm>
  );
}
