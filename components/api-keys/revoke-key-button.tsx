"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import type { RevokeKeyState } from "@/lib/settings/api-key-actions";

interface Props {
  keyId: string;
  name: string;
  active: boolean;
  action: (previous: RevokeKeyState, formData: FormData) => Promise<RevokeKeyState>;
}

export function RevokeKeyButton({ keyId, name, active, action }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // The revoked row stays, so this component does too: close the dialog and put focus somewhere sensible.
  useEffect(() => {
    if (state.status !== "revoked") return;
    dialogRef.current?.close();
    document.getElementById("keys-title")?.focus();
  }, [state]);

  return (
    <>
      {active ? (
        <button
          type="button"
          className="button button--ghost-danger"
          aria-haspopup="dialog"
          onClick={() => dialogRef.current?.showModal()}
        >
          Revoke<span className="visually-hidden"> {name}</span>
        </button>
      ) : (
        <span className="muted" aria-hidden="true">
          —
        </span>
      )}
      <dialog ref={dialogRef} className="dialog" aria-labelledby={titleId} aria-describedby={descriptionId}>
        <h2 id={titleId}>Revoke &ldquo;{name}&rdquo;?</h2>
        <p id={descriptionId}>
          Anything using this key is refused from its next request on. This cannot be undone; the key stays listed as
          revoked.
        </p>
        {state.status === "error" && (
          <p className="alert alert--error" role="alert">
            {state.message}
          </p>
        )}
        <form action={formAction}>
          <input type="hidden" name="keyId" defaultValue={keyId} />
          <div className="actions">
            <button
              type="button"
              className="button button--secondary"
              autoFocus
              onClick={() => dialogRef.current?.close()}
            >
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={pending}>
              {pending ? "Revoking…" : "Revoke key"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
