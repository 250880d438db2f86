"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

/** The key a dialog acts on. */
export interface KeyTarget {
  id: string;
  name: string;
}

interface Props {
  keyId: string;
  title: ReactNode;
  description: ReactNode;
  /** The server action's refusal, shown above the form. */
  error?: string;
  action: (formData: FormData) => void;
  pending: boolean;
  submit: { label: string; busy: string; className: string };
  /** Called when the dialog closes (Cancel, Escape): the owner unmounts it. */
  onClose: () => void;
  /** Fields of the form besides the key's id. */
  children?: ReactNode;
}

/**
 * A modal confirmation for one key (roll, revoke), open from its mount: Cancel has the focus, so Enter never
 * confirms by accident, and closing the dialog returns the focus to the button that opened it.
 */
export function KeyDialog({ keyId, title, description, error, action, pending, submit, onClose, children }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => dialogRef.current?.showModal(), []);

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={onClose}
    >
      <h2 id={titleId}>{title}</h2>
      <p id={descriptionId}>{description}</p>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <form action={action} className="form">
        <input type="hidden" name="keyId" defaultValue={keyId} />
        {children}
        <div className="actions">
          <button
            type="button"
            className="button button--secondary"
            autoFocus
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
