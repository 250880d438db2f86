"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import type { RedeliverState } from "@/lib/settings/webhook-actions";

/** How long after queueing the list is read again: the server's delivery loop attempts it within about this. */
const ATTEMPT_SHOWS_AFTER_MS = 2_500;

interface Props {
  deliveryId: string;
  /** What the delivery is, for the button's name: rows of one delivery share a button each. */
  label: string;
  action: (previous: RedeliverState, formData: FormData) => Promise<RedeliverState>;
}

/** Sends a delivery again, now; its new attempt joins the list a moment later. */
export function RedeliverButton({ deliveryId, label, action }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const router = useRouter();

  // The action's own refresh ran before the attempt was made: read the list again once it has been.
  useEffect(() => {
    if (state.status !== "queued") return;
    const timer = setTimeout(() => router.refresh(), ATTEMPT_SHOWS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state, router]);

  return (
    <form action={formAction}>
      <input type="hidden" name="deliveryId" value={deliveryId} />
      <button type="submit" className="button button--secondary button--small" disabled={pending}>
        {pending ? "Queueing…" : "Redeliver"}
        <span className="visually-hidden"> {label}</span>
      </button>
      <p role="status" className="hint" style={{ whiteSpace: "normal" }}>
        {state.status === "queued" && "Queued: sending now."}
        {state.status === "error" && <span className="field-error">{state.message}</span>}
      </p>
    </form>
  );
}
