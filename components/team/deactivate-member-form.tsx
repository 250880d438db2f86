"use client";

import { useActionState } from "react";
import type { KeyOfMember } from "@/lib/data/members";
import type { DeactivatePersonState, ReactivatePersonState } from "@/lib/settings/team-actions";

interface DeactivateProps {
  memberId: string;
  name: string;
  /** The API keys they created that still work: each preselected to be revoked with them. */
  keys: KeyOfMember[];
  action: (previous: DeactivatePersonState, formData: FormData) => Promise<DeactivatePersonState>;
}

/**
 * Deactivating someone: their sessions are refused from their next request; the keys they created are listed,
 * each to be revoked (the default) or kept for the tools that use them. They stay on the roster, as reports name
 * them.
 */
export function DeactivateMemberForm({ memberId, name, keys, action }: DeactivateProps) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  return (
    <section className="card" aria-labelledby="deactivate-title">
      <h2 id="deactivate-title">Deactivate</h2>
      <p>
        {name} can no longer sign in: their open sessions are refused from their next request. They stay on the roster,
        inactive, as the reports that name them stay; you can reactivate them later.
      </p>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert">
          {state.message}
        </p>
      )}
      <form action={formAction} className="form">
        <input type="hidden" name="memberId" value={memberId} />
        {keys.length > 0 ? (
          <fieldset className="field">
            <legend>API keys {name} created</legend>
            <p className="hint">Ticked keys are revoked with the deactivation; untick a key a tool still needs.</p>
            {keys.map((key) => (
              <div className="checkbox" key={key.id}>
                <input id={`revoke-${key.id}`} type="checkbox" name="revokeKeyIds" value={key.id} defaultChecked />
                <label htmlFor={`revoke-${key.id}`}>
                  Revoke {key.name} <span className="mono muted">{key.hint}</span>
                </label>
              </div>
            ))}
          </fieldset>
        ) : (
          <p className="hint">{name} created no API key that still works.</p>
        )}
        <div className="actions">
          <button type="submit" className="button button--danger" disabled={pending}>
            {pending ? "Deactivating…" : `Deactivate ${name}`}
          </button>
        </div>
      </form>
    </section>
  );
}

interface ReactivateProps {
  memberId: string;
  name: string;
  action: (previous: ReactivatePersonState, formData: FormData) => Promise<ReactivatePersonState>;
}

export function ReactivateMemberForm({ memberId, name, action }: ReactivateProps) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  return (
    <section className="card" aria-labelledby="reactivate-title">
      <h2 id="reactivate-title">Deactivated</h2>
      <p>
        {name} cannot sign in. Reactivating lets them sign in again; keys revoked with the deactivation stay revoked.
      </p>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert">
          {state.message}
        </p>
      )}
      <form action={formAction} className="form">
        <input type="hidden" name="memberId" value={memberId} />
        <div className="actions">
          <button type="submit" className="button button--secondary" disabled={pending}>
            {pending ? "Reactivating…" : `Reactivate ${name}`}
          </button>
        </div>
      </form>
    </section>
  );
}
