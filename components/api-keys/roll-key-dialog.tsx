"use client";

import { useActionState, useId } from "react";
import type { KeyOverlap } from "@/lib/schemas/key-overlap";
import type { NewKey, RollKeyState } from "@/lib/settings/api-key-actions";
import { KeyDialog, type KeyTarget } from "./key-dialog";

// Every word a user reads for an overlap choice; typed over the choices, so a new one cannot go unlabelled.
const OVERLAP_LABELS: Record<KeyOverlap, string> = {
  "0": "No overlap: the old key stops now",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};

/** Long enough for an agent that runs once a day to pick up its new key before the old one stops. */
const DEFAULT_OVERLAP: KeyOverlap = "24h";

interface Props {
  target: KeyTarget;
  action: (previous: RollKeyState, formData: FormData) => Promise<RollKeyState>;
  onClose: () => void;
  onRolled: (key: NewKey) => void;
}

export function RollKeyDialog({ target, action, onClose, onRolled }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const overlapId = useId();

  return (
    <KeyDialog
      keyId={target.id}
      title={<>Roll &ldquo;{target.name}&rdquo;?</>}
      description="A new key with the same name, scopes and expiry replaces this one; it is shown once. Both keys work until the overlap ends, so the agent can switch without a gap; then the old key is refused like a revoked one."
      error={state.status === "error" ? state.message : undefined}
      action={formAction}
      pending={pending}
      submit={{ label: "Roll key", busy: "Rolling…", className: "button button--primary" }}
      done={state.status === "rolled"}
      // Once closed, the new secret is shown above the keys and takes the focus (NewKeySecret).
      onClose={() => (state.status === "rolled" ? onRolled(state.key) : onClose())}
    >
      <div className="field">
        <label htmlFor={overlapId}>The old key keeps working for</label>
        <select id={overlapId} name="overlap" defaultValue={DEFAULT_OVERLAP}>
          {(Object.keys(OVERLAP_LABELS) as KeyOverlap[]).map((overlap) => (
            <option key={overlap} value={overlap}>
              {OVERLAP_LABELS[overlap]}
            </option>
          ))}
        </select>
      </div>
    </KeyDialog>
  );
}
