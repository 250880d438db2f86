import type { Metadata } from "next";
import { unstable_rethrow } from "next/navigation";
import { AccountBar } from "@/components/account-bar";
import { CreateEndpointForm } from "@/components/webhooks/create-endpoint-form";
import { EndpointsTable } from "@/components/webhooks/endpoints-table";
import { WebhooksRefused, WebhooksUnavailable } from "@/components/webhooks/notices";
import { WebhookTrail } from "@/components/webhooks/webhook-trail";
import { canManageKeys } from "@/lib/session/require-key-manager";
import { requireSession } from "@/lib/session/require-session";
import { listWebhookEndpoints, listWebhookTrail } from "@/lib/webhooks/endpoints";
import { isDatabaseUnavailable } from "@/lib/errors";
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";
import {
  createEndpointAction,
  deleteEndpointAction,
  pingEndpointAction,
  rollSecretAction,
  setEndpointEnabledAction,
} from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

const HEADING = "Webhooks";

export default async function WebhooksPage() {
  try {
    return await WebhooksSettings();
  } catch (error) {
    // Sign-in redirects pass; a database that does not answer is said on the page instead of a bare 500.
    unstable_rethrow(error);
    if (!isDatabaseUnavailable(error)) throw error;
    return <WebhooksUnavailable heading={HEADING} />;
  }
}

async function WebhooksSettings() {
  const user = await requireSession("/settings/webhooks");
  if (!canManageKeys(user)) return <WebhooksRefused user={user} heading={HEADING} />;

  const [endpoints, trail] = await Promise.all([
    listWebhookEndpoints(user.organization.id),
    listWebhookTrail(user.organization.id),
  ]);
  const events = WEBHOOK_EVENT_TYPES.map((type) => ({ type, ...WEBHOOK_EVENTS[type] }));

  return (
    <div className="container settings">
      <AccountBar user={user} />
      <div className="page-head">
        <h1>{HEADING}</h1>
        <p>
          Sundown POSTs a signed event to each endpoint of {user.organization.name} the moment something happens, so
          your tools need not poll. Every delivery is signed as Standard Webhooks specifies: verify it with the
          endpoint&rsquo;s secret, shown once. Failed deliveries are retried for about three days.
        </p>
      </div>
      <div className="stack">
        <CreateEndpointForm action={createEndpointAction} events={events} />
        <EndpointsTable
          endpoints={endpoints}
          rollAction={rollSecretAction}
          deleteAction={deleteEndpointAction}
          setEnabledAction={setEndpointEnabledAction}
          pingAction={pingEndpointAction}
        />
        <WebhookTrail events={trail} />
      </div>
    </div>
  );
}
