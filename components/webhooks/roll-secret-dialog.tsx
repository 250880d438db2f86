"use client";

import type { RollSecretState } from "@/lib/settings/webhook-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import { OverlapField } from "../settings/overlap-field";
import type { EndpointTarget } from "./endpoint-target";

/** A roll's outcome as the page shows it once: the new secret, and until when the old one still signs. */
export interface RolledSecret {
  target: EndpointTarget;
  secret: string;
  previousSecretExpiresAt: string | null;
}

interface Props {
  target: EndpointTarget;
  action: (previous: RollSecretState, formData: FormData) => Promise<RollSecretState>;
  onClose: () => void;
  onRolled: (rolled: RolledSecret) => void;
}

export function RollSecretDialog({ target, action, onClose, onRolled }: Props) {
  return (
    <ConfirmDialog
      idField={{ name: "endpointId", value: target.id }}
      title={<>Roll the signing secret of {target.url}?</>}
      wrapTitle
      description="A new secret replaces the current one; it is shown once. Until the overlap ends, every delivery is signed with both, so the receiver keeps verifying while you deploy the new secret."
      action={action}
      submit={{ label: "Roll secret", busy: "Rolling…", className: "button button--primary" }}
      // Once closed, the new secret is shown above the endpoints and takes the focus (SigningSecret).
      onClose={(rolled) =>
        rolled
          ? onRolled({ target, secret: rolled.secret, previousSecretExpiresAt: rolled.previousSecretExpiresAt })
          : onClose()
      }
    >
      <OverlapField label="The old secret keeps signing for" noOverlap="No overlap: the old secret stops signing now" />
    </ConfirmDialog>
  );
}
