"use client";

import { useActionState } from "react";
import type { ForgotState } from "@/lib/session/forgot-password";

export function ForgotPasswordForm({
  action,
}: {
  action: (previous: ForgotState, formData: FormData) => Promise<ForgotState>;
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  if (state.status === "sent") {
    return (
      <p className="alert alert--success" role="status">
        If {state.email} signs in to Sundown, a link to set a new password is on its way. It works once, for 7 days.
      </p>
    );
  }
  return (
    <form className="form" action={formAction}>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert">
          {state.message}
        </p>
      )}
      <div className="field">
        <label htmlFor="forgot-email">Email</label>
        <input id="forgot-email" name="email" type="email" autoComplete="username" required maxLength={254} />
      </div>
      <button className="button button--primary" type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send me a link"}
      </button>
    </form>
  );
}
