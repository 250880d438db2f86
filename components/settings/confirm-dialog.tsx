"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

interface Props {
  /** The hidden field that tells the server action what to act on, e.g. `{ name: "keyId", value: key.id }`. */
  idField: { name: string; value: string };
  title: ReactNode;
  /** A title holding a long unbroken word (a URL) wraps anywhere rather than widen the dialog. */
  wrapTitle?: boolean;
  description: ReactNode;
  /** The server action's refusal, shown above the form. */
  error?: string;
  action: (formData: FormData) => void;
  pending: boolean;
  submit: { label: string; busy: string; className: string };
  /** The action succeeded: the dialog closes itself, so the page outside it is no longer inert. */
  done: boolean;
  /** Called once the dialog has closed (Cancel, Escape, done): the owner unmounts it and places the focus. */
  onClose: () => void;
  /** Fields of the form besides the id. */
  children?: ReactNode;
}

/**
 * A modal confirmation for one thing on a settings page (roll or revoke a key, roll an endpoint's secret or
 * delete it), open from its mount: Cancel has the focus, so Enter never confirms by accident, and cancelling
 * returns the focus to the button that opened it.
 */
export function ConfirmDialog(props: Props) {
  const { idField, title, wrapTitle, description, error, action, pending, submit, done, onClose, children } = props;
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

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={onClose}
    >
      <h2 id={titleId} style={wrapTitle ? { overflowWrap: "anywhere" } : undefined}>
        {title}
      </h2>
      <p id={descriptionId}>{description}</p>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <form action={action} className="form">
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
