"use client";

import type { CreateKeyField, CreateKeyState } from "@/lib/settings/api-key-actions";
import type { ExpiryChoice } from "@/lib/settings/api-key-inputs";
import { CheckboxGroup } from "../settings/checkbox-group";
import { CreateForm } from "../settings/create-form";
import { FieldError } from "../settings/refusals";
import { TextField } from "../settings/text-field";
import { NewKeySecret } from "./new-key-secret";

// Typed over the choices the server reads (EXPIRY_CHOICES), so none goes unlabelled.
const EXPIRY_LABELS: Record<ExpiryChoice, string> = {
  "30d": "In 30 days",
  "90d": "In 90 days",
  "365d": "In 365 days",
  never: "Never",
  date: "On a date…",
};

interface Props {
  action: (previous: CreateKeyState, formData: FormData) => Promise<CreateKeyState>;
  scopes: { scope: string; description: string }[];
  nameMax: number;
  minExpiry: string;
  /** The expiry choice preselected on a new form (DEFAULT_EXPIRY_CHOICE; the server module keeps zod off this bundle). */
  defaultExpiry: ExpiryChoice;
  /** This server's public address, for the agent setups shown with a new key. */
  base: string;
}

const FIELD_IDS: Record<CreateKeyField, string> = {
  name: "key-name",
  scopes: "key-scope-0",
  expiresAt: "key-expires",
};

const isExpiryChoice = (value: string | undefined): value is ExpiryChoice =>
  value !== undefined && Object.hasOwn(EXPIRY_LABELS, value);

export function CreateKeyForm({ action, scopes, nameMax, minExpiry, defaultExpiry, base }: Props) {
  return (
    <CreateForm
      title="Create a key"
      titleId="create-title"
      action={action}
      createdId={({ key }) => key.id}
      created={({ key }) => <NewKeySecret key={key.id} created={key} base={base} />}
      fieldIds={FIELD_IDS}
      submit={{ label: "Create key", busy: "Creating…" }}
    >
      {({ values, errors }) => (
        <>
          <TextField
            id={FIELD_IDS.name}
            name="name"
            label="Name"
            autoComplete="off"
            maxLength={nameMax}
            defaultValue={values?.name ?? ""}
            hint={<>Who or what will use it, e.g. &ldquo;Weekly digest agent&rdquo;. Up to {nameMax} characters.</>}
            error={errors.name}
          />
          <CheckboxGroup
            legend="Scopes"
            name="scopes"
            idPrefix="key-scope"
            options={scopes.map(({ scope, description }) => ({ value: scope, hint: description }))}
            checked={values?.scopes}
            error={errors.scopes}
          />
          <ExpiryFields
            // Remounted with the form: a refused form shows the choice it was sent with, a new one the default.
            initial={values ? (isExpiryChoice(values.expiry) ? values.expiry : "date") : defaultExpiry}
            minExpiry={minExpiry}
            dateValue={values?.expiresAt ?? ""}
            error={errors.expiresAt}
          />
        </>
      )}
    </CreateForm>
  );
}

/**
 * When the key expires: a preset, never, or a date in the field shown while "On a date…" is chosen. The field is
 * shown by CSS (.expiry-choice:has(…)), not by state, so it works before hydration and without JavaScript; the
 * server reads it only for that choice.
 */
function ExpiryFields({
  initial,
  minExpiry,
  dateValue,
  error,
}: {
  initial: ExpiryChoice;
  minExpiry: string;
  dateValue: string;
  error: string | undefined;
}) {
  return (
    <div className="expiry-choice">
      <div className="field">
        <label htmlFor="key-expiry">Expires</label>
        <select
          id="key-expiry"
          name="expiry"
          defaultValue={initial}
          aria-describedby="key-expiry-hint"
          style={{ maxWidth: "14rem" }}
        >
          {(Object.keys(EXPIRY_LABELS) as ExpiryChoice[]).map((choice) => (
            <option key={choice} value={choice}>
              {EXPIRY_LABELS[choice]}
            </option>
          ))}
        </select>
        <p id="key-expiry-hint" className="hint">
          A key that expires cannot be misused for ever if it leaks; this page warns a week before it does.
        </p>
      </div>
      <div className="field expiry-date">
        <label htmlFor={FIELD_IDS.expiresAt}>Expires on</label>
        <input
          id={FIELD_IDS.expiresAt}
          name="expiresAt"
          type="date"
          min={minExpiry}
          defaultValue={dateValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `key-expires-hint ${FIELD_IDS.expiresAt}-error` : "key-expires-hint"}
          style={{ maxWidth: "14rem" }}
        />
        <p id="key-expires-hint" className="hint">
          The key stops working at 00:00 UTC on this date.
        </p>
        <FieldError fieldId={FIELD_IDS.expiresAt} error={error} />
      </div>
    </div>
  );
}
