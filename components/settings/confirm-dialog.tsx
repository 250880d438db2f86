"use client";

import { useActionState, useEffect, useId, useRef, type ReactNode } from "react";
import type { ActionState } from "@/lib/settings/action";

interface Props<Done extends { status: string }> {
  /** The hidden field that tells the server action what to act on, e.g. `{ name: "keyId", value: key.id }`. */
  idField: { name: string; value: string };
  title: ReactNode;
  /** A title holding a long unbroken word (a URL) wraps anywhere rather than widen the dialog. */
  wrapTitle?: boolean;
  description: ReactNode;
  /** The server action the form posts to; its refusal is shown above the form. */
  action: (previous: ActionState<Done>, formData: FormData) => Promise<ActionState<Done>>;
  submit: { label: string; busy: string; className: string };
  /**
   * Called once the dialog has closed: with what the action answered when it succeeded (the dialog closes itself,
   * so the page outside it is no longer inert), else with nothing (Cancel, Escape). The owner unmounts it and
   * places the focus.
   */
  onClose: (done: Done | undefined) => void;
  /** Once the action succeeded and the dialog closed, the focus goes here: the list the thing left, say. */
  focusAfterDone?: string;
  /** Fields of the form besides the id. */
  children?: ReactNode;
}

/**
 * A modal confirmation for one thing on a settings page (roll or revoke a key, roll an endpoint's secret or
 * delete it), open from its mount: Cancel has the focus, so Enter never confirms by accident, and cancelling
 * returns the focus to the button that opened it.
 */
export function ConfirmDialog<Done extends { status: string }>(props: Props<Done>) {
  const { idField, title, wrapTitle, description, action, submit, onClose, focusAfterDone, children } = props;
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const done = state.status === "idle" || state.status === "error" ? undefined : (state as Done);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Focused after showModal: React's autoFocus would run while the dialog is still closed, and showModal alone
  // focuses the first field.
  useEffect(() => {
    dialogRef.current?.showModal();
    cancelRef.current?.focus();
  }, []);
  useEffect(() => {
    if (done) dialogRef.current?.close();
  }, [done]);

  const closed = () => {
    onClose(done);
    if (done && focusAfterDone) document.getElementById(focusAfterDone)?.focus();
  };

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={closed}
    >
      <h2 id={titleId} style={wrapTitle ? { overflowWrap: "anywhere" } : undefined}>
        {title}
      </h2>
      <p id={descriptionId}>{description}</p>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert">
          {(state as { message: string }).message}
        </p>
      )}
      <form action={formAction} className="form">
        <input type="hidden" name={idField.name} defaultValue={idField.value} />
        {children}
        <div className="actions">
          <button
            ref={cancelRef}
            type="button"
            className="button button--secondary"
            onClick={() => dialogRef.current?.close()}
          >
            Cancel
          </button>
          <button type="submit" className={submit.className} disabled={pending}>
            {pending ? submit.busy : submit.label}
          </button>
        </div>
      </form>
    </dialog>
  );
}
