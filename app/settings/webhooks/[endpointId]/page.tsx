import type { Metadata } from "next";
import Link from "next/link";
import { notFound, unstable_rethrow } from "next/navigation";
import { AccountBar } from "@/components/account-bar";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { WebhooksRefused, WebhooksUnavailable } from "@/components/webhooks/notices";
import { canManageKeys } from "@/lib/session/require-key-manager";
import { requireSession } from "@/lib/session/require-session";
import { ATTEMPTS_LISTED, listWebhookAttempts, listWebhookEndpoints } from "@/lib/webhooks/endpoints";
import { isDatabaseUnavailable } from "@/lib/errors";
import { endpointInput } from "@/lib/settings/webhook-inputs";
import { redeliverAction } from "../actions";

export const metadata: Metadata = { title: "Webhook deliveries" };

const HEADING = "Deliveries";

type Params = Promise<{ endpointId: string }>;

export default async function DeliveriesPage({ params }: { params: Params }) {
  try {
    return await Deliveries(await params);
  } catch (error) {
    // Sign-in redirects and the 404 pass; a database that does not answer is said on the page, not a bare 500.
    unstable_rethrow(error);
    if (!isDatabaseUnavailable(error)) throw error;
    return <WebhooksUnavailable heading={HEADING} />;
  }
}

async function Deliveries({ endpointId }: { endpointId: string }) {
  const user = await requireSession(`/settings/webhooks/${encodeURIComponent(endpointId)}`);
  if (!canManageKeys(user)) return <WebhooksRefused user={user} heading={HEADING} />;

  // Not an id at all, or not one of this organization's endpoints: the same 404, never a database error.
  const parsed = endpointInput.safeParse({ endpointId });
  if (!parsed.success) notFound();
  const id = parsed.data.endpointId;
  const endpoint = (await listWebhookEndpoints(user.organization.id)).find((e) => e.id === id);
  if (!endpoint) notFound();
  const attempts = await listWebhookAttempts(user.organization.id, id);

  return (
    <div className="container settings">
      <AccountBar user={user} />
      <p style={{ margin: "0 0 0.75rem" }}>
        <Link href="/settings/webhooks">← All webhook endpoints</Link>
      </p>
      <div className="page-head">
        <h1>{HEADING}</h1>
        <p>
          The latest attempts to deliver to <strong className="mono">{endpoint.url}</strong>, newest first: one line per
          attempt, with the receiver&rsquo;s status code and how long it took. Redeliver sends the same event again,
          now, freshly signed.
        </p>
      </div>
      <section className="card" aria-labelledby="attempts-title">
        <div className="section-head">
          <h2 id="attempts-title">Attempts</h2>
          <Link href={`/settings/webhooks/${id}`}>Refresh</Link>
        </div>
        {!endpoint.enabled && (
          <p className="alert alert--warning" style={{ marginBottom: "1rem" }}>
            This endpoint is disabled: enable it on the <Link href="/settings/webhooks">webhooks page</Link> before
            redelivering to it.
          </p>
        )}
        <DeliveriesTable
          attempts={attempts}
          limit={ATTEMPTS_LISTED}
          redeliverAction={endpoint.enabled ? redeliverAction : null}
        />
      </section>
    </div>
  );
}
