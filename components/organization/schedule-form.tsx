"use client";

import { useActionState } from "react";
import type { FormRefused } from "@/lib/settings/action";
import type { ScheduleField, UpdateScheduleState } from "@/lib/settings/organization-actions";
import { FieldError, FormRefusal } from "../settings/refusals";
import { SubmitButton } from "../settings/submit-button";

interface Props {
  action: (previous: UpdateScheduleState, formData: FormData) => Promise<UpdateScheduleState>;
  current: { cutoffTime: string; workingDays: number[] };
  timeZone: string;
}

const FIELD_IDS: Record<ScheduleField, string> = { cutoffTime: "organization-cutoff", workingDays: "working-day-1" };

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** When the organization's day ends: its reports are written at the cutoff of each working day. */
export function ScheduleForm({ action, current, timeZone }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const refused =
    state.status === "error"
      ? (state as FormRefused<ScheduleField, { cutoffTime: "text"; workingDays: "list" }>)
      : undefined;
  const cutoff = refused?.values.cutoffTime ?? current.cutoffTime;
  const days = refused?.values.workingDays ?? current.workingDays.map(String);
  const errors = refused?.fieldErrors ?? {};
  return (
    <section className="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">When reports are written</h2>
      {state.status === "saved" && (
        <p className="alert alert--success" role="status" style={{ marginBottom: "1rem" }}>
          {state.changed ? "Saved." : "Nothing to change: this is the organization's schedule already."}
        </p>
      )}
      <form
        key={refused ? JSON.stringify(refused.values) : JSON.stringify(current)}
        action={formAction}
        className="form"
        noValidate
      >
        <FormRefusal state={state} fieldIds={FIELD_IDS} />
        <div className="field">
          <label htmlFor={FIELD_IDS.cutoffTime}>Cutoff</label>
          <input
            id={FIELD_IDS.cutoffTime}
            name="cutoffTime"
            type="time"
            defaultValue={cutoff}
            aria-invalid={errors.cutoffTime ? true : undefined}
            aria-describedby={
              errors.cutoffTime
                ? `${FIELD_IDS.cutoffTime}-hint ${FIELD_IDS.cutoffTime}-error`
                : `${FIELD_IDS.cutoffTime}-hint`
            }
            style={{ maxWidth: "10rem" }}
          />
          <p id={`${FIELD_IDS.cutoffTime}-hint`} className="hint">
            A time of day in {timeZone.replaceAll("_", " ")}: each working day&rsquo;s member, lead and organization
            reports are written then, from the updates people wrote. An update after it writes them again.
          </p>
          <FieldError fieldId={FIELD_IDS.cutoffTime} error={errors.cutoffTime} />
        </div>
        <fieldset className="field" aria-describedby={errors.workingDays ? "working-day-1-error" : undefined}>
          <legend>Working days</legend>
          <p className="hint">Someone without an update on a working day is silent; other days count for no one.</p>
          <div className="weekday-choices">
            {WEEKDAYS.map((name, i) => (
              <div className="checkbox" key={name}>
                <input
                  id={`working-day-${i + 1}`}
                  type="checkbox"
                  name="workingDays"
                  value={String(i + 1)}
                  defaultChecked={days.includes(String(i + 1))}
                  aria-invalid={errors.workingDays ? true : undefined}
                />
                <label htmlFor={`working-day-${i + 1}`}>{name}</label>
              </div>
            ))}
          </div>
          <FieldError fieldId="working-day-1" error={errors.workingDays} />
        </fieldset>
        <SubmitButton pending={pending} label="Save" busy="Saving…" />
      </form>
    </section>
  );
}
