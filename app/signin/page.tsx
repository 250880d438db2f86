import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { OAuthButtons } from "@/components/oauth-buttons";
import { oauthProviders } from "@/lib/auth/next-auth";
import { getSessionUser } from "@/lib/auth/session";
import { getDbHandle } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { safeCallbackPath } from "@/lib/settings/callback-path";
import { signInErrorMessage } from "@/lib/settings/sign-in-errors";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl);
  if (await getSessionUser()) redirect(callbackPath);
  const error = typeof params.error === "string" ? signInErrorMessage(params.error) : undefined;
  const providers = oauthProviders();
  const demo = (await getDbHandle()).kind === "embedded" && getEnv().SUNDOWN_DEMO_PASSWORD === "sundown-demo";
  return (
    <div className="container auth-page">
      <section className="card auth-card" aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Sundown</h1>
        <p className="hint">Founders and leads manage their organization&rsquo;s API keys here.</p>
        <SignInForm callbackPath={callbackPath} initialError={error} />
        {providers.length > 0 && (
          <>
            <p className="divider">or</p>
            <OAuthButtons providers={providers} callbackPath={callbackPath} />
          </>
        )}
        {demo && (
          <p className="hint" style={{ marginTop: "1.25rem" }}>
            Demo database: sign in as <code>founder@acme.example</code>, <code>lead@acme.example</code> or{" "}
            <code>member@acme.example</code> with the password <code>sundown-demo</code>.
          </p>
        )}
      </section>
    </div>
  );
}
