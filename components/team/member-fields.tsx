import type { RosterMember } from "@/lib/data/members";
import type { MemberField } from "@/lib/settings/team-actions";
import { FieldError } from "../settings/refusals";
import { TextField } from "../settings/text-field";

/** What a refused form echoes back, or the person as stored (edit), or nothing (add). */
export type MemberValues = Partial<Record<MemberField | "external" | "active", string>>;

export const memberValuesOf = (member: RosterMember): MemberValues => ({
  name: member.name,
  email: member.email ?? "",
  role: member.role,
  department: member.department ?? "",
  external: String(member.external),
  otherEmails: member.otherEmails.join("\n"),
  chats: member.chats.join("\n"),
  phones: member.phones.join("\n"),
});

export const fieldIdsOf = (prefix: string): Record<MemberField, string> => ({
  name: `${prefix}-name`,
  email: `${prefix}-email`,
  role: `${prefix}-role`,
  department: `${prefix}-department`,
  otherEmails: `${prefix}-other-emails`,
  chats: `${prefix}-chats`,
  phones: `${prefix}-phones`,
});

interface Props {
  prefix: string;
  values: MemberValues | undefined;
  errors: Partial<Record<MemberField, string>>;
  /** The roles this user may give: a lead gives no founder role. */
  roles: readonly string[];
}

function ListField(props: { id: string; name: string; label: string; hint: string; value: string; error?: string }) {
  const { id, name, label, hint, value, error } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        defaultValue={value}
        rows={2}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        {hint}
      </p>
      <FieldError fieldId={id} error={error} />
    </div>
  );
}

/** A person's fields, as the add form and the edit page show them. */
export function MemberFields({ prefix, values, errors, roles }: Props) {
  const ids = fieldIdsOf(prefix);
  return (
    <>
      <div className="field-grid">
        <TextField
          id={ids.name}
          name="name"
          label="Name"
          autoComplete="off"
          defaultValue={values?.name ?? ""}
          hint="As reports and the API name them."
          error={errors.name}
        />
        <TextField
          id={ids.email}
          name="email"
          label="E-mail"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          defaultValue={values?.email ?? ""}
          hint="Their address on the roster: imports match people by it. Never served."
          error={errors.email}
        />
        <div className="field">
          <label htmlFor={ids.role}>Role</label>
          <select id={ids.role} name="role" defaultValue={values?.role ?? "member"}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
          <FieldError fieldId={ids.role} error={errors.role} />
        </div>
        <TextField
          id={ids.department}
          name="department"
          label="Department"
          autoComplete="off"
          defaultValue={values?.department ?? ""}
          hint="Optional."
          error={errors.department}
        />
      </div>
      <div className="checkbox">
        <input
          id={`${prefix}-external`}
          type="checkbox"
          name="external"
          value="true"
          defaultChecked={values?.external === "true"}
        />
        <label htmlFor={`${prefix}-external`}>
          External <span className="hint">A contractor or someone outside the company.</span>
        </label>
      </div>
      <div className="field-grid">
        <ListField
          id={ids.otherEmails}
          name="otherEmails"
          label="Other e-mail addresses"
          hint="One per line."
          value={values?.otherEmails ?? ""}
          error={errors.otherEmails}
        />
        <ListField
          id={ids.chats}
          name="chats"
          label="Chat handles"
          hint="One per line, e.g. @ana or U0ANA42."
          value={values?.chats ?? ""}
          error={errors.chats}
        />
        <ListField
          id={ids.phones}
          name="phones"
          label="Phone numbers"
          hint="One per line, with the country code: +44 20 7946 0958."
          value={values?.phones ?? ""}
          error={errors.phones}
        />
      </div>
      <p className="hint">
        Contact details are masked wherever they appear in report text, and no API, MCP tool or webhook ever serves
        them.
      </p>
    </>
  );
}
