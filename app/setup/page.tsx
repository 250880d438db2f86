import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { SetupForm } from "@/components/setup/setup-form";
import { setupEnabled } from "@/lib/setup/first-organization";
import { setupAction } from "./actions";

export const metadata: Metadata = { title: "Set up Sundown" };

/** The first organization and its founder, for whoever knows SUNDOWN_SETUP_TOKEN; a 404 while it is unset. */
export default async function SetupPage() {
  // Read per request: the environment of the running server decides, not the build's.
  await connection();
  if (!setupEnabled()) notFound();
  return (
    <div className="container auth-page">
      <section className="card auth-card" aria-labelledby="setup-title">
        <h1 id="setup-title">Set up Sundown</h1>
        <p className="hint">
          Create the first organization and its founder. You get the founder&rsquo;s one-time link to set a password.
          Unset SUNDOWN_SETUP_TOKEN afterwards: this page then goes away.
        </p>
        <SetupForm action={setupAction} />
      </section>
    </div>
  );
}
