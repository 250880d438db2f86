"use client";

import type { RevokeKeyState } from "@/lib/settings/api-key-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import type { KeyTarget } from "./key-target";

interface Props {
  target: KeyTarget;
  action: (previous: RevokeKeyState, formData: FormData) => Promise<RevokeKeyState>;
  onClose: () => void;
}

export function RevokeKeyDialog({ target, action, onClose }: Props) {
  return (
    <ConfirmDialog
      idField={{ name: "keyId", value: target.id }}
      title={<>Revoke &ldquo;{target.name}&rdquo;?</>}
      description={
        <>
          Anything using the key{" "}
          <span className="mono" style={{ whiteSpace: "nowrap" }}>
            {target.hint}
          </span>{" "}
          is refused from its next request on. This cannot be undone; the key stays listed as revoked.
        </>
      }
      action={action}
      submit={{ label: "Revoke key", busy: "Revoking…", className: "button button--danger" }}
      onClose={onClose}
      // The revoked row moves to the collapsed list: focus goes to the keys' heading, not to the page's start.
      focusAfterDone="keys-title"
    />
  );
}
