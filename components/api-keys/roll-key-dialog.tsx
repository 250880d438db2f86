"use client";

import type { NewKey, RollKeyState } from "@/lib/settings/api-key-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import { OverlapField } from "../settings/overlap-field";
import type { KeyTarget } from "./key-target";

interface Props {
  target: KeyTarget;
  action: (previous: RollKeyState, formData: FormData) => Promise<RollKeyState>;
  onClose: () => void;
  onRolled: (key: NewKey) => void;
}

export function RollKeyDialog({ target, action, onClose, onRolled }: Props) {
  return (
    <ConfirmDialog
      idField={{ name: "keyId", value: target.id }}
      title={<>Roll &ldquo;{target.name}&rdquo;?</>}
      description={
        <>
          A new key with the same name, scopes and expiry replaces{" "}
          <span className="mono" style={{ whiteSpace: "nowrap" }}>
            {target.hint}
          </span>
          ; it is shown once. Both keys work until the overlap ends, so the agent can switch without a gap; then the old
          key is refused like a revoked one.
        </>
      }
      action={action}
      submit={{ label: "Roll key", busy: "Rolling…", className: "button button--primary" }}
      // Once closed, the new secret is shown above the keys and takes the focus (NewKeySecret).
      onClose={(rolled) => (rolled ? onRolled(rolled.key) : onClose())}
    >
      <OverlapField label="The old key keeps working for" noOverlap="No overlap: the old key stops now" />
    </ConfirmDialog>
  );
}
