"use client";

import type { CreateEndpointState, EndpointField } from "@/lib/settings/webhook-actions";
import { CheckboxGroup } from "../settings/checkbox-group";
import { CreateForm } from "../settings/create-form";
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

export function CreateEndpointForm({ action, events }: Props) {
  return (
    <CreateForm
      title="Add an endpoint"
      titleId="create-endpoint-title"
      action={action}
      createdId={({ endpoint }) => endpoint.id}
      created={({ endpoint }) => (
        <SigningSecret key={endpoint.id} title="Endpoint added" secret={endpoint.secret}>
          <p style={{ margin: 0 }}>
            <span className="mono">{endpoint.url}</span> receives {endpoint.events.join(", ")} from now on.
          </p>
        </SigningSecret>
      )}
      fieldIds={FIELD_IDS}
      submit={{ label: "Add endpoint", busy: "Adding…" }}
    >
      {({ values, errors }) => (
        <>
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
        </>
      )}
    </CreateForm>
  );
}
