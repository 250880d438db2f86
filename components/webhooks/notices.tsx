import Link from "next/link";
import type { SessionUser } from "@/lib/data/users";
import { AccountBar } from "../account-bar";
import { UnavailableNotice } from "../settings/unavailable-notice";

// What the webhooks pages show instead of their content, worded and laid out as the keys page's notices.

/** A member's view: the same rule as for API keys (founders and leads only), and whom to ask. */
export function WebhooksRefused({ user, heading }: { user: SessionUser; heading: string }) {
  return (
    <div className="container settings">
      <AccountBar user={user} />
      <div className="page-head">
        <h1>{heading}</h1>
      </div>
      <section className="card notice" aria-labelledby="no-access-title">
        <h2 id="no-access-title">Only founders and leads manage webhooks</h2>
        <p>
          You are signed in as a member of {user.organization.name}. A webhook endpoint receives every report of the
          whole organization as it is published, so only its founders and leads can add or change one.
        </p>
        <p style={{ marginBottom: 0 }}>
          Need events for a tool? Ask a founder or lead of {user.organization.name}. Meanwhile, the{" "}
          <Link href="/docs">API docs</Link> describe what an endpoint receives.
        </p>
      </section>
    </div>
  );
}

export function WebhooksUnavailable({ heading }: { heading: string }) {
  return <UnavailableNotice heading={heading} title="The webhooks cannot be shown right now" />;
}
