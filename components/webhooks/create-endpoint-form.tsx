"use client";

import { useActionState, useEffect, useRef } from "react";
import type { CreateEndpointState, EndpointField } from "@/lib/settings/webhook-actions";
import { CodeText } from "./code-text";
import { SigningSecret } from "./signing-secret";

/** An event the form offers, as the catalog describes it (lib/webhooks/events.ts). */
interface EventChoice {
  type: string;
  description: string;
  scope: string;
}

interface Props {
  action: (previous: CreateEndpointState, formData: FormData) => Promise<CreateEndpointState>;
  events: EventChoice[];
}

const FIELD_IDS: Record<EndpointField, string> = { url: "endpoint-url", events: "endpoint-event-0" };

/** A new endpoint remounts the form (cleared), a refusal remounts it with what was typed; as on the keys page. */
function formKeyOf(state: CreateEndpointState): string {
  if (state.status === "created") return `created:${state.endpoint.id}`;
  return state.status === "error" ? `error:${JSON.stringify(state.values)}` : "idle";
}

export function CreateEndpointForm({ action, events }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const values = state.status === "error" ? state.values : undefined;
  const errors = state.status === "error" ? state.fieldErrors : {};

  // After a refusal, focus goes to the first field to fix (or the message when no field is at fault).
  useEffect(() => {
    if (state.status !== "error") return;
    const first = (Object.keys(FIELD_IDS) as EndpointField[]).find((f) => state.fieldErrors[f]);
    if (first) document.getElementById(FIELD_IDS[first])?.focus();
    else summaryRef.current?.focus();
  }, [state]);

  return (
    <section className="card" aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Add an endpoint</h2>
      {state.status === "created" && (
        <SigningSecret key={state.endpoint.id} title="Endpoint added" secret={state.endpoint.secret}>
          <p style={{ margin: 0 }}>
            <span className="mono">{state.endpoint.url}</span> receives {state.endpoint.events.join(", ")} from now on.
          </p>
        </SigningSecret>
      )}
      <form key={formKeyOf(state)} action={formAction} className="form" noValidate>
        {state.status === "error" && (
          <p ref={summaryRef} tabIndex={-1} className="alert alert--error" role="alert">
            {state.message}
          </p>
        )}
        <div className="field">
          <label htmlFor={FIELD_IDS.url}>Endpoint URL</label>
          <input
            id={FIELD_IDS.url}
            name="url"
            // Text, not url: the server's rules say what is wrong (the browser's own check would say less).
            type="text"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://hooks.example.com/sundown"
            defaultValue={values?.url ?? ""}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={["endpoint-url-hint", errors.url ? `${FIELD_IDS.url}-error` : ""].join(" ").trim()}
          />
          <p id="endpoint-url-hint" className="hint">
            An https:// address on the public internet that answers a 2xx within 10 seconds.
          </p>
          {errors.url && (
            <p id={`${FIELD_IDS.url}-error`} className="field-error">
              {errors.url}
            </p>
          )}
        </div>
        <fieldset className="field" aria-describedby={errors.events ? `${FIELD_IDS.events}-error` : undefined}>
          <legend>Events</legend>
          {events.map(({ type, description, scope }, i) => (
            <div className="checkbox" key={type}>
              <input
                id={`endpoint-event-${i}`}
                type="checkbox"
                name="events"
                value={type}
                defaultChecked={values?.events.includes(type) ?? false}
                aria-describedby={`endpoint-event-${i}-hint`}
                aria-invalid={errors.events ? true : undefined}
              />
              <label htmlFor={`endpoint-event-${i}`}>
                {type}
                <span id={`endpoint-event-${i}-hint`} className="hint">
                  <CodeText text={description} /> Carries what a key with <code>{scope}</code> reads.
                </span>
              </label>
            </div>
          ))}
          {errors.events && (
            <p id={`${FIELD_IDS.events}-error`} className="field-error">
              {errors.events}
            </p>
          )}
        </fieldset>
        <div>
          <button className="button button--primary" type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add endpoint"}
          </button>
        </div>
      </form>
    </section>
  );
}
