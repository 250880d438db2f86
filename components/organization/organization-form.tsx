"use client";

import { useActionState } from "react";
import type { FormRefused } from "@/lib/settings/action";
import type { OrganizationField, UpdateOrganizationState } from "@/lib/settings/organization-actions";
import { FieldError, FormRefusal } from "../settings/refusals";
import { SubmitButton } from "../settings/submit-button";
import { TextField } from "../settings/text-field";

interface Props {
  action: (previous: UpdateOrganizationState, formData: FormData) => Promise<UpdateOrganizationState>;
  current: { name: string; timeZone: string };
  /** Every zone the server accepts, UTC first. */
  timeZones: string[];
  nameMax: number;
}

const FIELD_IDS: Record<OrganizationField, string> = { name: "organization-name", timeZone: "organization-time-zone" };

/**
 * The organization's settings as one form: a refusal keeps what was chosen and marks the field at fault; a save
 * says what it changed. Room below for more settings of the organization's day (a report cutoff, later).
 */
export function OrganizationForm({ action, current, timeZones, nameMax }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const refused =
    state.status === "error"
      ? (state as FormRefused<OrganizationField, { name: "text"; timeZone: "text" }>)
      : undefined;
  const values = refused?.values ?? current;
  const errors = refused?.fieldErrors ?? {};
  return (
    <section className="card" aria-labelledby="organization-title">
      <h2 id="organization-title">Name and time zone</h2>
      {state.status === "saved" && (
        <p className="alert alert--success" role="status" style={{ marginBottom: "1rem" }}>
          {state.changed ? "Saved." : "Nothing to change: these are the organization's settings already."}
        </p>
      )}
      <form key={refused ? JSON.stringify(values) : state.status} action={formAction} className="form" noValidate>
        <FormRefusal state={state} fieldIds={FIELD_IDS} />
        <TextField
          id={FIELD_IDS.name}
          name="name"
          label="Name"
          autoComplete="organization"
          maxLength={nameMax}
          defaultValue={values.name}
          hint={<>How Sundown names the organization to agents, in settings and in the CLI.</>}
          error={errors.name}
        />
        <div className="field">
          <label htmlFor={FIELD_IDS.timeZone}>Time zone</label>
          <select
            id={FIELD_IDS.timeZone}
            name="timeZone"
            defaultValue={values.timeZone}
            aria-invalid={errors.timeZone ? true : undefined}
            aria-describedby={
              errors.timeZone ? `${FIELD_IDS.timeZone}-hint ${FIELD_IDS.timeZone}-error` : `${FIELD_IDS.timeZone}-hint`
            }
            style={{ maxWidth: "22rem" }}
          >
            {timeZones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll("_", " ")}
              </option>
            ))}
          </select>
          <p id={`${FIELD_IDS.timeZone}-hint`} className="hint">
            The days reports are filed under: <code>since</code> and <code>until</code> dates, the day resource and
            &ldquo;yesterday&rdquo; count in this zone. Times stay in UTC in the API.
          </p>
          <FieldError fieldId={FIELD_IDS.timeZone} error={errors.timeZone} />
        </div>
        <SubmitButton pending={pending} label="Save" busy="Saving…" />
      </form>
    </section>
  );
}
