"use client";

import { useActionState } from "react";
import type { RevokeKeyState } from "@/lib/settings/api-key-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import type { KeyTarget } from "./key-target";

interface Props {
  target: KeyTarget;
  action: (previous: RevokeKeyState, formData: FormData) => Promise<RevokeKeyState>;
  onClose: () => void;
}

export function RevokeKeyDialog({ target, action, onClose }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });

  const revoked = state.status === "revoked";

  return (
    <ConfirmDialog
      idField={{ name: "keyId", value: target.id }}
      title={<>Revoke &ldquo;{target.name}&rdquo;?</>}
      description="Anything using this key is refused from its next request on. This cannot be undone; the key stays listed as revoked."
      error={state.status === "error" ? state.message : undefined}
      action={formAction}
      pending={pending}
      submit={{ label: "Revoke key", busy: "Revoking…", className: "button button--danger" }}
      done={revoked}
      onClose={() => {
        onClose();
        // The revoked row moves to the collapsed list: focus goes to the keys' heading, not to the page's start.
        if (revoked) document.getElementById("keys-title")?.focus();
      }}
    />
  );
}
