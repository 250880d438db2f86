"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/settings/action";

interface Props<Done extends { status: string }> {
  /** The hidden fields naming what to remove. */
  fields: Record<string, string>;
  /** What the button removes, for its accessible name: rows share a button each. */
  label: string;
  action: (previous: ActionState<Done>, formData: FormData) => Promise<ActionState<Done>>;
}

/** A row's remove button: one post, the refusal said beside it. The page is read again by the action. */
export function RemoveButton<Done extends { status: string }>({ fields, label, action }: Props<Done>) {
  const [state, formAction, pending] = useActionState<ActionState<Done>, FormData>(action, { status: "idle" });
  return (
    <form action={formAction}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button button--ghost-danger button--small" disabled={pending}>
        {pending ? "Removing…" : "Remove"}
        <span className="visually-hidden"> {label}</span>
      </button>
      {state.status === "error" && (
        <p role="alert" className="field-error">
          {(state as { message: string }).message}
        </p>
      )}
    </form>
  );
}
