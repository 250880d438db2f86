import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { OAuthButtons } from "@/components/oauth-buttons";
import { developmentSignInOrigin, nextAuthCsrfToken, oauthProviders } from "@/lib/session/next-auth";
import { getSessionUser } from "@/lib/session/session";
import Link from "next/link";
import { firstSteps } from "@/lib/demo/presence";
import { mailEnabled } from "@/lib/mail/send";
import { getEnv, signInUrl } from "@/lib/env";
import { callbackUrlOn, safeCallbackPath, signInPath } from "@/lib/session/callback-path";
import { signInErrorMessage } from "@/lib/session/sign-in-errors";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * After a failed sign-in without JavaScript, next-auth sends the browser back here with the callbackUrl it was
 * given made absolute on the sign-in origin: read back by the same rule next-auth's redirects follow, as a path.
 */
function callbackPathOf(value: string | string[] | undefined): string {
  if (typeof value !== "string") return safeCallbackPath(value);
  const origin = new URL(signInUrl(getEnv())).origin;
  return callbackUrlOn(origin, value).slice(origin.length);
}

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackPath = callbackPathOf(params.callbackUrl);
  // Moved here, not in proxy.ts: Next turns a proxy's redirect to the address it listens on into a relative
  // one, whatever Host the browser used, and the browser would come straight back.
  const moveTo = developmentSignInOrigin((await headers()).get("host"));
  if (moveTo) redirect(`${moveTo}${signInPath(callbackPath)}`);
  if (await getSessionUser()) redirect(callbackPath);
  const error = typeof params.error === "string" ? signInErrorMessage(params.error) : undefined;
  // The token of the CSRF cookie this browser holds, or the one proxy.ts issued in this response (pages
  // cannot set cookies).
  const csrfToken = await nextAuthCsrfToken();
  const providers = oauthProviders();
  const demo = (await firstSteps()) === "demo";
  return (
    <div className="container auth-page">
      <section className="card auth-card" aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Sundown</h1>
        <p className="hint">Founders and leads manage their organization&rsquo;s API keys here.</p>
        <SignInForm callbackPath={callbackPath} csrfToken={csrfToken} initialError={error} />
        {mailEnabled() && (
          <p className="hint">
            <Link href="/forgot-password">Forgot password?</Link>
          </p>
        )}
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
