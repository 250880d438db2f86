"use client";

import { useActionState } from "react";
import type { SetupState } from "@/lib/setup/first-organization";
import { OneTimeSecret } from "../settings/one-time-secret";

interface Props {
  action: (previous: SetupState, formData: FormData) => Promise<SetupState>;
}

const FIELDS = [
  { name: "token", label: "Setup token", type: "password", hint: "The value of SUNDOWN_SETUP_TOKEN.", auto: "off" },
  { name: "name", label: "Organization name", type: "text", hint: "e.g. Acme Robotics", auto: "organization" },
  { name: "slug", label: "Slug", type: "text", hint: "How commands name it: lower-case, e.g. acme.", auto: "off" },
  { name: "founderName", label: "Founder's name", type: "text", hint: "As the team knows them.", auto: "name" },
  {
    name: "founderEmail",
    label: "Founder's email",
    type: "email",
    hint: "Only this address can use the link.",
    auto: "email",
  },
] as const;

export function SetupForm({ action }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  if (state.status === "created") {
    return (
      <OneTimeSecret
        title={`${state.organization} is set up`}
        warning={
          <>
            Open or copy the founder&rsquo;s link now: it is shown only this once and works once, for {state.email},
            until {state.expiresAt.slice(0, 16).replace("T", " ")} UTC.{state.mailed ? " It was also e-mailed." : ""}
          </>
        }
        label="Founder's link"
        secret={state.link}
        noun="link"
      >
        <a className="button button--secondary" href={state.link}>
          Open the link
        </a>
      </OneTimeSecret>
    );
  }
  const errors = state.status === "error" ? state.fieldErrors : {};
  const values = state.status === "error" ? state.values : {};
  return (
    <form className="form" action={formAction}>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert">
          {state.message}
        </p>
      )}
      {FIELDS.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`setup-${field.name}`}>{field.label}</label>
          <input
            id={`setup-${field.name}`}
            name={field.name}
            type={field.type}
            autoComplete={field.auto}
            required
            defaultValue={field.name === "token" ? undefined : values[field.name]}
            aria-invalid={errors[field.name] ? true : undefined}
            aria-describedby={`setup-${field.name}-hint`}
          />
          <p id={`setup-${field.name}-hint`} className={errors[field.name] ? "field-error" : "hint"}>
            {errors[field.name] ?? field.hint}
          </p>
        </div>
      ))}
      <button className="button button--primary" type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create organization"}
      </button>
    </form>
  );
}
