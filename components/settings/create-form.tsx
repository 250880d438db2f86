"use client";

import { useActionState, type ReactNode } from "react";
import type { Echo, EchoedValues, FormRefused, FormState } from "@/lib/settings/action";
import { FormRefusal } from "./refusals";
import { SubmitButton } from "./submit-button";

interface Props<Done extends { status: string }, Field extends string, E extends Echo> {
  /** The card's heading, which names the region (and the form's alerts in it). */
  title: string;
  titleId: string;
  action: (previous: FormState<Done, Field, E>, formData: FormData) => Promise<FormState<Done, Field, E>>;
  /** The id of what was just made: it keys the one-time display above the fresh form. */
  createdId: (done: Done) => string;
  /** What a success shows once, above the fresh form: the new secret. */
  created: (done: Done) => ReactNode;
  /** Each field's input id, in the order the form shows them: a refusal focuses the first at fault. */
  fieldIds: Record<Field, string>;
  submit: { label: string; busy: string };
  /** The form's fields, given what a refused form was sent with (nothing on a fresh form) and what is at fault. */
  children: (form: { values: EchoedValues<E> | undefined; errors: Partial<Record<Field, string>> }) => ReactNode;
}

const refusedOf = <Field extends string, E extends Echo>(state: { status: string }) =>
  state.status === "error" ? (state as FormRefused<Field, E>) : undefined;

const doneOf = <Done,>(state: { status: string }) =>
  state.status === "idle" || state.status === "error" ? undefined : (state as Done);

/**
 * The form's React key: a success remounts the form (cleared), a refusal remounts it with what was typed. Never the
 * bare id of what was made, which keys the one-time display beside it: siblings need keys of their own.
 */
export function formKeyOf<Done extends { status: string }>(
  state: FormState<Done, string, Echo>,
  createdId: (done: Done) => string,
): string {
  const done = doneOf<Done>(state);
  if (done) return `created:${createdId(done)}`;
  const refused = refusedOf(state);
  return refused ? `error:${JSON.stringify(refused.values)}` : "idle";
}

/**
 * A settings page's card that makes something (a key, an endpoint): its form posts FormData to a server action
 * through useActionState, so it works before the page's JavaScript has loaded and without it. A refusal keeps
 * what was typed and marks the fields at fault; a success shows its one-time display above a fresh form.
 */
export function CreateForm<Done extends { status: string }, Field extends string, E extends Echo>(
  props: Props<Done, Field, E>,
) {
  const { title, titleId, action, createdId, created, fieldIds, submit, children } = props;
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const done = doneOf<Done>(state);
  const refused = refusedOf<Field, E>(state);
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {done && created(done)}
      <form key={formKeyOf(state, createdId)} action={formAction} className="form" noValidate>
        <FormRefusal state={state} fieldIds={fieldIds} />
        {children({ values: refused?.values, errors: refused?.fieldErrors ?? {} })}
        <SubmitButton pending={pending} label={submit.label} busy={submit.busy} />
      </form>
    </section>
  );
}
