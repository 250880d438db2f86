"use client";

import Link from "next/link";
import type { AddPersonState } from "@/lib/settings/team-actions";
import { CreateForm } from "../settings/create-form";
import { fieldIdsOf, MemberFields } from "./member-fields";

interface Props {
  action: (previous: AddPersonState, formData: FormData) => Promise<AddPersonState>;
  roles: readonly string[];
}

export function AddMemberForm({ action, roles }: Props) {
  return (
    <CreateForm
      title="Add a person"
      titleId="add-member-title"
      action={action}
      createdId={({ member }) => member.id}
      created={({ member }) => (
        <p className="alert alert--success" role="status">
          Added <Link href={`/settings/team/${member.id}`}>{member.name}</Link> to the roster.
        </p>
      )}
      fieldIds={fieldIdsOf("add")}
      submit={{ label: "Add person", busy: "Adding…" }}
    >
      {({ values, errors }) => <MemberFields prefix="add" values={values} errors={errors} roles={roles} />}
    </CreateForm>
  );
}
