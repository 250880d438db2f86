"use client";

import { signIn } from "next-auth/react";
import { useId, useRef, useState, type FormEvent } from "react";
import { signInErrorMessage } from "@/lib/settings/sign-in-errors";

export function SignInForm({ callbackPath, initialError }: { callbackPath: string; initialError?: string }) {
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
      onSubmit={onSubmit}
      aria-labelledby="signin-title"
      aria-describedby={error ? errorId : undefined}
    >
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
