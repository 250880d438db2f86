import type { Metadata } from "next";
import Link from "next/link";
import { LinkForm } from "@/components/invitations/link-form";
import { inspectInvitation, type LinkState } from "@/lib/data/invitations";
import { LinkProviders } from "@/components/invitations/link-providers";
import { nextAuthCsrfToken, oauthProviders } from "@/lib/session/next-auth";
import { holdLink } from "./actions";
import { signInErrorMessage } from "@/lib/session/sign-in-errors";
import { LINK_REFUSAL } from "@/lib/data/invitations";

export const metadata: Metadata = { title: "Your Sundown link", referrer: "no-referrer" };

const TITLES: Record<Exclude<LinkState, "open">, string> = {
  used: "This link has been used",
  expired: "This link has expired",
  revoked: "This link was revoked",
  unknown: "This link is not valid",
};

function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A one-time link (issue 36). Opening it only reads (mail scanners open links): the form's POST to next-auth uses it
 * up. A used, expired, revoked or unknown link says so and offers nothing.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await inspectInvitation(token);
  if (view.state !== "open" || !view.open) {
    const state = view.state === "open" ? "unknown" : view.state;
    return (
      <div className="container auth-page">
        <section className="card auth-card" aria-labelledby="link-title">
          <h1 id="link-title">{TITLES[state]}</h1>
          <p className="hint">{signInErrorMessage(LINK_REFUSAL[state])}</p>
          <p>
            <Link href="/signin">Go to sign-in</Link>
          </p>
        </section>
      </div>
    );
  }
  const { email, role, organizationName, resetsPassword, name, expiresAt } = view.open;
  const csrfToken = await nextAuthCsrfToken();
  const providers = oauthProviders();
  return (
    <div className="container auth-page">
      <section className="card auth-card" aria-labelledby="link-title">
        <h1 id="link-title">{resetsPassword ? "Set a new password" : `Join ${organizationName}`}</h1>
        <p className="hint">
          {resetsPassword
            ? `For your sign-in at ${organizationName}. `
            : `You are invited to ${organizationName} on Sundown as a ${role}. `}
          This link works once, until {when(expiresAt)}.
        </p>
        <LinkForm
          token={token}
          email={email}
          askName={name === null}
          resetsPassword={resetsPassword}
          csrfToken={csrfToken}
        />
        {providers.length > 0 && (
          <>
            <p className="divider">or</p>
            <LinkProviders token={token} providers={providers} holdLink={holdLink} />
          </>
        )}
      </section>
    </div>
  );
}
