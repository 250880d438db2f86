"use client";

import { useActionState } from "react";
import type { FormRefused } from "@/lib/settings/action";
import type { KpiTargetField, SetKpiTargetState } from "@/lib/settings/organization-actions";
import { FieldError, FormRefusal } from "../settings/refusals";
import { SubmitButton } from "../settings/submit-button";
import { TextField } from "../settings/text-field";

type Echo = { name: "text"; target: "text"; direction: "text"; unit: "text" };

interface Props {
  action: (previous: SetKpiTargetState, formData: FormData) => Promise<SetKpiTargetState>;
  nameMax: number;
}

const FIELD_IDS: Record<KpiTargetField, string> = {
  name: "kpi-name",
  target: "kpi-target",
  direction: "kpi-direction",
  unit: "kpi-unit",
};

const SAVED = { added: "is set.", changed: "is changed.", unchanged: "was already this." } as const;

/** Sets a KPI's target: a new one, or, under a name already in the table, that one's. */
export function KpiTargetForm({ action, nameMax }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const refused = state.status === "error" ? (state as FormRefused<KpiTargetField, Echo>) : undefined;
  const values = refused?.values ?? { name: "", target: "", direction: "at_least", unit: "" };
  const errors = refused?.fieldErrors ?? {};
  return (
    <form
      key={refused ? JSON.stringify(values) : JSON.stringify(state)}
      action={formAction}
      className="form"
      noValidate
      aria-labelledby="kpi-form-title"
    >
      <h3 id="kpi-form-title" style={{ margin: 0 }}>
        Set a target
      </h3>
      {state.status === "saved" && (
        <p className="alert alert--success" role="status">
          The target of {state.name} {SAVED[state.outcome]}
        </p>
      )}
      <FormRefusal state={state} fieldIds={FIELD_IDS} />
      <div className="field-grid">
        <TextField
          id={FIELD_IDS.name}
          name="name"
          label="KPI"
          maxLength={nameMax}
          defaultValue={values.name}
          hint={<>As people write it in their updates, e.g. MRR. A name in the table changes its target.</>}
          error={errors.name}
        />
        <TextField
          id={FIELD_IDS.target}
          name="target"
          label="Target"
          inputMode="decimal"
          defaultValue={values.target}
          hint={<>A number, e.g. 120 or 0.5.</>}
          error={errors.target}
        />
        <div className="field">
          <label htmlFor={FIELD_IDS.direction}>On track when the value is</label>
          <select
            id={FIELD_IDS.direction}
            name="direction"
            defaultValue={values.direction}
            aria-invalid={errors.direction ? true : undefined}
            aria-describedby={errors.direction ? `${FIELD_IDS.direction}-error` : undefined}
          >
            <option value="at_least">at least the target</option>
            <option value="at_most">at most the target</option>
          </select>
          <FieldError fieldId={FIELD_IDS.direction} error={errors.direction} />
        </div>
        <TextField
          id={FIELD_IDS.unit}
          name="unit"
          label="Unit (optional)"
          defaultValue={values.unit}
          hint={<>e.g. k€, %, signups.</>}
          error={errors.unit}
        />
      </div>
      <SubmitButton pending={pending} label="Set target" busy="Saving…" />
    </form>
  );
}
