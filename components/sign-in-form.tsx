"use client";

import { signIn } from "next-auth/react";
import { useId, useRef, useState, type FormEvent } from "react";
import { signInErrorMessage } from "@/lib/session/sign-in-errors";

// next-auth's own credentials endpoint, where the form posts before (or without) JavaScript.
const CREDENTIALS_CALLBACK = "/api/auth/callback/credentials";

/**
 * A real POST to next-auth even before the page's JavaScript runs (slow network, JavaScript off), never a GET
 * that would put the password in the URL: next-auth then redirects to the callback path, or back to /signin
 * with `?error=`. Once hydrated, `signIn()` takes over and shows the error without leaving the page.
 */
export function SignInForm({
  callbackPath,
  csrfToken,
  initialError,
}: {
  callbackPath: string;
  /** next-auth's token for this browser's CSRF cookie (lib/session/next-auth.ts nextAuthCsrfToken). */
  csrfToken: string;
  initialError?: string;
}) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);
  const errorId = useId();
  const emailRef = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn("credentials", {
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      callbackUrl: callbackPath,
      redirect: false,
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      // A full navigation, so the next page is rendered with the new session cookie.
      window.location.assign(callbackPath);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? "Unknown"));
    emailRef.current?.focus();
  }

  return (
    <form
      className="form"
      method="post"
      action={CREDENTIALS_CALLBACK}
      onSubmit={onSubmit}
      aria-labelledby="signin-title"
      aria-describedby={error ? errorId : undefined}
    >
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={callbackPath} />
      {error && (
        <p id={errorId} className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="signin-email">Email</label>
        <input
          ref={emailRef}
          id="signin-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor="signin-password">Password</label>
        <input
          id="signin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <button className="button button--primary" type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
