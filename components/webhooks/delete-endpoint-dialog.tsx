"use client";

import type { DeleteEndpointState } from "@/lib/settings/webhook-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import type { EndpointTarget } from "./endpoint-target";

interface Props {
  target: EndpointTarget;
  action: (previous: DeleteEndpointState, formData: FormData) => Promise<DeleteEndpointState>;
  onClose: () => void;
}

export function DeleteEndpointDialog({ target, action, onClose }: Props) {
  return (
    <ConfirmDialog
      idField={{ name: "endpointId", value: target.id }}
      title={<>Delete {target.url}?</>}
      wrapTitle
      description="It receives nothing from now on, and its deliveries and their attempts are deleted with it. This cannot be undone; the activity below keeps a line saying it was deleted. To pause it instead, disable it."
      action={action}
      submit={{ label: "Delete endpoint", busy: "Deleting…", className: "button button--danger" }}
      onClose={onClose}
      // The row is gone: focus goes to the endpoints' heading, not to the page's start.
      focusAfterDone="endpoints-title"
    />
  );
}
