import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { ForgotPasswordForm } from "@/components/forgot-password-form";
import { mailEnabled } from "@/lib/mail/send";
import { forgotPasswordAction } from "./actions";

export const metadata: Metadata = { title: "Forgot password" };

/** Exists only where mail is on: the link goes by e-mail alone. */
export default async function ForgotPasswordPage() {
  // Read per request: the environment of the running server decides, not the build's.
  await connection();
  if (!mailEnabled()) notFound();
  return (
    <div className="container auth-page">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p className="hint">Enter the address you sign in with: we e-mail it a link to set a new password.</p>
        <ForgotPasswordForm action={forgotPasswordAction} />
        <p>
          <Link href="/signin">Back to sign-in</Link>
        </p>
      </section>
    </div>
  );
}
