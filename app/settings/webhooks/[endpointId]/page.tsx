import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { ATTEMPTS_LISTED, listWebhookAttempts } from "@/lib/data/webhook-deliveries";
import { listWebhookEndpoints } from "@/lib/data/webhook-endpoints";
import { endpointInput } from "@/lib/settings/webhook-inputs";
import { redeliverAction } from "../actions";

export const metadata: Metadata = { title: "Webhook deliveries" };

type Params = Promise<{ endpointId: string }>;

export default settingsPage<{ params: Params }>(
  "webhooks",
  async ({ user, heading, params }) => {
    // Not an id at all, or not one of this organization's endpoints: the same 404, never a database error.
    const parsed = endpointInput.safeParse(await params);
    if (!parsed.success) notFound();
    const id = parsed.data.endpointId;
    const endpoint = (await listWebhookEndpoints(user.organization.id)).find((e) => e.id === id);
    if (!endpoint) notFound();
    const attempts = await listWebhookAttempts(user.organization.id, id);

    return (
      <>
        <p style={{ margin: "0 0 0.75rem" }}>
          <Link href="/settings/webhooks">← All webhook endpoints</Link>
        </p>
        <SectionHead title={heading}>
          The latest attempts to deliver to <strong className="mono">{endpoint.url}</strong>, newest first: one line per
          attempt, with the receiver&rsquo;s status code, how long it took and the start of its answer. Redeliver sends
          the same event again, now, freshly signed.
        </SectionHead>
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
      </>
    );
  },
  {
    heading: "Deliveries",
    path: async ({ params }) => `/settings/webhooks/${encodeURIComponent((await params).endpointId)}`,
  },
);
