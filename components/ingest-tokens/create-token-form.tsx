"use client";

import type { CreateIngestTokenField, CreateIngestTokenState } from "@/lib/settings/ingest-token-actions";
import { CreateForm } from "../settings/create-form";
import { TextField } from "../settings/text-field";
import { NewTokenSecret } from "./new-token-secret";

const FIELD_IDS: Record<CreateIngestTokenField, string> = { name: "token-name" };

interface Props {
  action: (previous: CreateIngestTokenState, formData: FormData) => Promise<CreateIngestTokenState>;
  nameMax: number;
}

export function CreateTokenForm({ action, nameMax }: Props) {
  return (
    <CreateForm
      title="Create a token"
      titleId="create-token-title"
      action={action}
      createdId={({ token }) => token.id}
      created={({ token }) => <NewTokenSecret key={token.id} token={token} />}
      fieldIds={FIELD_IDS}
      submit={{ label: "Create token", busy: "Creating…" }}
    >
      {({ values, errors }) => (
        <TextField
          id={FIELD_IDS.name}
          name="name"
          label="Name"
          autoComplete="off"
          maxLength={nameMax}
          defaultValue={values?.name ?? ""}
          hint={
            <>
              The tool that will send reports, e.g. &ldquo;Standup bot&rdquo;: the activity trail names its imports by
              it. Up to {nameMax} characters.
            </>
          }
          error={errors.name}
        />
      )}
    </CreateForm>
  );
}
