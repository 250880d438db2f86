"use client";

import { useActionState } from "react";
import type { StoredAbsence } from "@/lib/data/absences";
import type { ActionState, FormRefused } from "@/lib/settings/action";
import type { AbsenceField, AddAbsenceState } from "@/lib/settings/team-actions";
import { FieldError, FormRefusal } from "../settings/refusals";
import { RemoveButton } from "../settings/remove-button";
import { SubmitButton } from "../settings/submit-button";

interface Props {
  memberId: string;
  name: string;
  /** The person's absences that have not ended, earliest first. */
  absences: StoredAbsence[];
  add: (previous: AddAbsenceState, formData: FormData) => Promise<AddAbsenceState>;
  remove: (
    previous: ActionState<{ status: "removed" }>,
    formData: FormData,
  ) => Promise<ActionState<{ status: "removed" }>>;
}

const FIELD_IDS: Record<AbsenceField, string> = { firstDay: "absence-first-day", lastDay: "absence-last-day" };

/** A person's absences: away is neither silent nor counted in a silent streak; reports say only "away". */
export function Absences({ memberId, name, absences, add, remove }: Props) {
  const [state, formAction, pending] = useActionState(add, { status: "idle" });
  const refused =
    state.status === "error" ? (state as FormRefused<AbsenceField, { firstDay: "text"; lastDay: "text" }>) : undefined;
  const values = refused?.values ?? { firstDay: "", lastDay: "" };
  const errors = refused?.fieldErrors ?? {};
  const field = (id: AbsenceField, label: string) => (
    <div className="field">
      <label htmlFor={FIELD_IDS[id]}>{label}</label>
      <input
        id={FIELD_IDS[id]}
        name={id}
        type="date"
        defaultValue={values[id]}
        aria-invalid={errors[id] ? true : undefined}
        aria-describedby={errors[id] ? `${FIELD_IDS[id]}-error` : undefined}
      />
      <FieldError fieldId={FIELD_IDS[id]} error={errors[id]} />
    </div>
  );
  return (
    <section className="card stack" aria-labelledby="absences-title" style={{ gap: "1rem" }}>
      <div>
        <h2 id="absences-title">Absences</h2>
        <p className="hint">
          While away, {name} is not silent and no streak counts; reports and the roster say only &ldquo;away&rdquo;.
        </p>
      </div>
      {absences.length === 0 ? (
        <p className="empty">No absence ahead.</p>
      ) : (
        <ul className="absence-list">
          {absences.map((a) => (
            <li key={a.id}>
              <span>
                {a.firstDay} to {a.lastDay}
              </span>
              <RemoveButton
                fields={{ memberId, absenceId: a.id }}
                label={`the absence from ${a.firstDay} to ${a.lastDay}`}
                action={remove}
              />
            </li>
          ))}
        </ul>
      )}
      <form
        key={refused ? JSON.stringify(values) : JSON.stringify(state)}
        action={formAction}
        className="form"
        noValidate
      >
        {state.status === "added" && (
          <p className="alert alert--success" role="status">
            {state.added
              ? `Away from ${state.firstDay} to ${state.lastDay}.`
              : `This absence was there already: ${state.firstDay} to ${state.lastDay}.`}
          </p>
        )}
        <FormRefusal state={state} fieldIds={FIELD_IDS} />
        <input type="hidden" name="memberId" value={memberId} />
        <div className="field-grid">
          {field("firstDay", "Away from")}
          {field("lastDay", "Until (included)")}
        </div>
        <SubmitButton pending={pending} label="Add absence" busy="Adding…" />
      </form>
    </section>
  );
}
