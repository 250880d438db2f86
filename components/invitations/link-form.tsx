"use client";

import { signIn } from "next-auth/react";
import { useId, useState, type FormEvent } from "react";
import { signInErrorMessage } from "@/lib/session/sign-in-errors";

// next-auth's endpoint for the "invitation" provider (lib/session/invitation-sign-in.ts): the form posts there even
// without JavaScript; once hydrated, signIn() shows a refusal without leaving the page.
const INVITATION_CALLBACK = "/api/auth/callback/invitation";
const AFTER = "/settings";

/** Sets the password of a one-time link, which signs its person in. */
export function LinkForm({
  token,
  email,
  askName,
  resetsPassword,
  csrfToken,
}: {
  token: string;
  email: string;
  askName: boolean;
  resetsPassword: boolean;
  csrfToken: string;
}) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const errorId = useId();
  const rulesId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn("invitation", {
      token,
      password: String(data.get("password") ?? ""),
      name: String(data.get("name") ?? ""),
      callbackUrl: AFTER,
      redirect: false,
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      // A full navigation, so the next page is rendered with the new session cookie.
      window.location.assign(new URL(AFTER, window.location.origin).href);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? "Unknown"));
  }

  return (
    <form
      className="form"
      method="post"
      action={INVITATION_CALLBACK}
      onSubmit={onSubmit}
      aria-labelledby="link-title"
      aria-describedby={error ? errorId : undefined}
    >
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={AFTER} />
      <input type="hidden" name="token" value={token} />
      {error && (
        <p id={errorId} className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="link-email">Email</label>
        <input id="link-email" name="email" type="email" autoComplete="username" value={email} readOnly />
      </div>
      {askName && (
        <div className="field">
          <label htmlFor="link-name">Your name</label>
          <input id="link-name" name="name" type="text" autoComplete="name" required maxLength={100} />
        </div>
      )}
      <div className="field">
        <label htmlFor="link-password">{resetsPassword ? "New password" : "Password"}</label>
        <input
          id="link-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={1024}
          aria-describedby={rulesId}
          aria-invalid={error ? true : undefined}
        />
        <p id={rulesId} className="hint">
          At least 12 characters and hard to guess: several unrelated words work well.
        </p>
      </div>
      <button className="button button--primary" type="submit" disabled={pending}>
        {pending ? "Signing in…" : resetsPassword ? "Set password and sign in" : "Join and sign in"}
      </button>
    </form>
  );
}
