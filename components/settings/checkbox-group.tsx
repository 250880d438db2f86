import type { ReactNode } from "react";
import { FieldError } from "./refusals";

interface Props {
  legend: string;
  /** The form field every box posts its value under. */
  name: string;
  /**
   * The boxes' ids are `${idPrefix}-0`, `${idPrefix}-1`, …; the first is where the focus goes when the group is at
   * fault, and its error is `${idPrefix}-0-error`.
   */
  idPrefix: string;
  /** Each box's value, which is also its label, and what it means. */
  options: { value: string; hint: ReactNode }[];
  /** The values a refused form was sent with; none are checked on a new form. */
  checked: string[] | undefined;
  error: string | undefined;
}

/** A settings form's pick-any-of list (a key's scopes, an endpoint's events), each box with its hint. */
export function CheckboxGroup({ legend, name, idPrefix, options, checked, error }: Props) {
  const firstId = `${idPrefix}-0`;
  return (
    <fieldset className="field" aria-describedby={error ? `${firstId}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map(({ value, hint }, i) => (
        <div className="checkbox" key={value}>
          <input
            id={`${idPrefix}-${i}`}
            type="checkbox"
            name={name}
            value={value}
            defaultChecked={checked?.includes(value) ?? false}
            aria-describedby={`${idPrefix}-${i}-hint`}
            aria-invalid={error ? true : undefined}
          />
          <label htmlFor={`${idPrefix}-${i}`}>
            {value}
            <span id={`${idPrefix}-${i}-hint`} className="hint">
              {hint}
            </span>
          </label>
        </div>
      ))}
      <FieldError fieldId={firstId} error={error} />
    </fieldset>
  );
}
