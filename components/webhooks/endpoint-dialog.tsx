"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

/** The endpoint a dialog or button acts on. */
export interface EndpointTarget {
  id: string;
  url: string;
}

interface Props {
  endpointId: string;
  title: ReactNode;
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
  /** Fields of the form besides the endpoint's id. */
  children?: ReactNode;
}

/**
 * A modal confirmation for one endpoint (roll its secret, delete it), as the keys page's: open from its mount,
 * Cancel has the focus, so Enter never confirms by accident.
 */
export function EndpointDialog(props: Props) {
  const { endpointId, title, description, error, action, pending, submit, done, onClose, children } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Focused after showModal: React's autoFocus would run while the dialog is still closed.
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
      <h2 id={titleId} style={{ overflowWrap: "anywhere" }}>
        {title}
      </h2>
      <p id={descriptionId}>{description}</p>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <form action={action} className="form">
        <input type="hidden" name="endpointId" defaultValue={endpointId} />
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
