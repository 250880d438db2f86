"use client";

import { useActionState } from "react";
import type { EditPersonState } from "@/lib/settings/team-actions";
import { FormRefusal } from "../settings/refusals";
import { SubmitButton } from "../settings/submit-button";
import { fieldIdsOf, MemberFields, type MemberValues } from "./member-fields";

interface Props {
  memberId: string;
  stored: MemberValues;
  active: boolean;
  action: (previous: EditPersonState, formData: FormData) => Promise<EditPersonState>;
  roles: readonly string[];
}

/** A person's details, saved as a whole; a refusal keeps what was typed. */
export function EditMemberForm({ memberId, stored, active, action, roles }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const refused = state.status === "error" ? state : undefined;
  const values = refused ? (refused.values as MemberValues) : stored;
  return (
    <section className="card" aria-labelledby="edit-member-title">
      <h2 id="edit-member-title">Details</h2>
      {state.status === "saved" && (
        <p className="alert alert--success" role="status">
          {state.change === "unchanged" ? "Nothing to change." : `Saved ${state.member.name}.`}
        </p>
      )}
      <form
        key={refused ? JSON.stringify(refused.values) : state.status}
        action={formAction}
        className="form"
        noValidate
      >
        <FormRefusal state={state} fieldIds={fieldIdsOf("edit")} />
        <input type="hidden" name="memberId" value={memberId} />
        {/* Whether they are active is changed below, with its own consequences. */}
        <input type="hidden" name="active" value={String(active)} />
        <MemberFields prefix="edit" values={values} errors={refused?.fieldErrors ?? {}} roles={roles} />
        <SubmitButton pending={pending} label="Save" busy="Saving…" />
      </form>
    </section>
  );
}
