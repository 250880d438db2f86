"use client";

import { useActionState, useId } from "react";
import type { KeyOverlap } from "@/lib/schemas/key-overlap";
import type { RollSecretState } from "@/lib/settings/webhook-actions";
import { EndpointDialog, type EndpointTarget } from "./endpoint-dialog";

/** A roll's outcome as the page shows it once: the new secret, and until when the old one still signs. */
export interface RolledSecret {
  target: EndpointTarget;
  secret: string;
  previousSecretExpiresAt: string | null;
}

// The overlap choices every surface offers (lib/schemas/key-overlap.ts), worded for a signing secret; typed over
// the choices, so a new one cannot go unlabelled.
const OVERLAP_LABELS: Record<KeyOverlap, string> = {
  "0": "No overlap: the old secret stops signing now",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};

/** Long enough to deploy the new secret to a receiver during a working day. */
const DEFAULT_OVERLAP: KeyOverlap = "24h";

interface Props {
  target: EndpointTarget;
  action: (previous: RollSecretState, formData: FormData) => Promise<RollSecretState>;
  onClose: () => void;
  onRolled: (rolled: RolledSecret) => void;
}

export function RollSecretDialog({ target, action, onClose, onRolled }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const overlapId = useId();

  return (
    <EndpointDialog
      endpointId={target.id}
      title={<>Roll the signing secret of {target.url}?</>}
      description="A new secret replaces the current one; it is shown once. Until the overlap ends, every delivery is signed with both, so the receiver keeps verifying while you deploy the new secret."
      error={state.status === "error" ? state.message : undefined}
      action={formAction}
      pending={pending}
      submit={{ label: "Roll secret", busy: "Rolling…", className: "button button--primary" }}
      done={state.status === "rolled"}
      // Once closed, the new secret is shown above the endpoints and takes the focus (SigningSecret).
      onClose={() =>
        state.status === "rolled"
          ? onRolled({ target, secret: state.secret, previousSecretExpiresAt: state.previousSecretExpiresAt })
          : onClose()
      }
    >
      <div className="field">
        <label htmlFor={overlapId}>The old secret keeps signing for</label>
        <select id={overlapId} name="overlap" defaultValue={DEFAULT_OVERLAP}>
          {(Object.keys(OVERLAP_LABELS) as KeyOverlap[]).map((overlap) => (
            <option key={overlap} value={overlap}>
              {OVERLAP_LABELS[overlap]}
            </option>
          ))}
        </select>
      </div>
    </EndpointDialog>
  );
}
