"use client";

import { useEffect, useRef } from "react";

interface Props<Field extends string> {
  /** The form's action state: only a refusal (`status: "error"`) shows here. */
  state: { status: string; message?: string; fieldErrors?: Partial<Record<Field, string>> };
  /** Each field's input id, in the order the form shows them. */
  fieldIds: Record<Field, string>;
}

/**
 * A refused form's message, at the top of the form. After each refusal the focus goes to the first field to fix,
 * or to this message when no field is at fault, so a keyboard or screen reader user lands on what to do next.
 */
export function FormRefusal<Field extends string>({ state, fieldIds }: Props<Field>) {
  const messageRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (state.status !== "error") return;
    const first = (Object.keys(fieldIds) as Field[]).find((f) => state.fieldErrors?.[f]);
    if (first) document.getElementById(fieldIds[first])?.focus();
    else messageRef.current?.focus();
  }, [state, fieldIds]);

  if (state.status !== "error") return null;
  return (
    <p ref={messageRef} tabIndex={-1} className="alert alert--error" role="alert">
      {state.message}
    </p>
  );
}

/** A field's refusal, below it; the field's aria-describedby names it (`${fieldId}-error`). */
export function FieldError({ fieldId, error }: { fieldId: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`${fieldId}-error`} className="field-error">
      {error}
    </p>
  );
}
