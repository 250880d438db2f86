import type { InputHTMLAttributes, ReactNode } from "react";
import { FieldError } from "./refusals";

type Props = {
  /** The input's id; its hint is `${id}-hint` and its error `${id}-error`. */
  id: string;
  name: string;
  label: string;
  /** What to type, below the field. */
  hint: ReactNode;
  error: string | undefined;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "type" | "aria-invalid" | "aria-describedby">;

/** A settings form's one-line text field: its label, its hint, and the server's refusal of it. */
export function TextField({ id, name, label, hint, error, ...input }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="text"
        {...input}
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
