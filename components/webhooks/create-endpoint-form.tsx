"use client";

import { useActionState } from "react";
import type { CreateEndpointState, EndpointField } from "@/lib/settings/webhook-actions";
import { CheckboxGroup } from "../settings/checkbox-group";
import { FormRefusal } from "../settings/refusals";
import { SubmitButton } from "../settings/submit-button";
import { TextField } from "../settings/text-field";
import { CodeText } from "../code-text";
import { SigningSecret } from "./signing-secret";

/** An event the form offers, as the catalog describes it (lib/schemas/webhook-events.ts). */
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
  const values = state.status === "error" ? state.values : undefined;
  const errors = state.status === "error" ? state.fieldErrors : {};

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
        <FormRefusal state={state} fieldIds={FIELD_IDS} />
        <TextField
          id={FIELD_IDS.url}
          name="url"
          label="Endpoint URL"
          // A text field, not type="url": the server's rules say what is wrong (the browser's own check would say less).
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.example.com/sundown"
          defaultValue={values?.url ?? ""}
          hint="An https:// address on the public internet that answers a 2xx within 10 seconds."
          error={errors.url}
        />
        <CheckboxGroup
          legend="Events"
          name="events"
          idPrefix="endpoint-event"
          options={events.map(({ type, description, scope }) => ({
            value: type,
            hint: (
              <>
                <CodeText text={description} /> Carries what a key with <code>{scope}</code> reads.
              </>
            ),
          }))}
          checked={values?.events}
          error={errors.events}
        />
        <SubmitButton pending={pending} label="Add endpoint" busy="Adding…" />
      </form>
    </section>
  );
}
