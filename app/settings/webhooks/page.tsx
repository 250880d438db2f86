import type { Metadata } from "next";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { CreateEndpointForm } from "@/components/webhooks/create-endpoint-form";
import { EndpointsTable } from "@/components/webhooks/endpoints-table";
import { WebhookTrail } from "@/components/webhooks/webhook-trail";
import { listActivity } from "@/lib/data/activity";
import { listWebhookEndpoints, WEBHOOK_ENDPOINT_SUBJECT } from "@/lib/data/webhook-endpoints";
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";
import { settingsSection } from "@/lib/settings/sections";
import {
  createEndpointAction,
  deleteEndpointAction,
  pingEndpointAction,
  rollSecretAction,
  setEndpointEnabledAction,
} from "./actions";

export const metadata: Metadata = { title: settingsSection("webhooks").label };

export default settingsPage("webhooks", async ({ user, heading }) => {
  const [endpoints, lines] = await Promise.all([
    listWebhookEndpoints(user.organization.id),
    listActivity(user.organization.id, [WEBHOOK_ENDPOINT_SUBJECT]),
  ]);
  const events = WEBHOOK_EVENT_TYPES.map((type) => ({ type, ...WEBHOOK_EVENTS[type] }));

  return (
    <>
      <SectionHead title={heading}>
        Sundown POSTs a signed event to each endpoint of {user.organization.name} the moment something happens, so your
        tools need not poll. Every delivery is signed as Standard Webhooks specifies: verify it with the
        endpoint&rsquo;s secret, shown once. Failed deliveries are retried for about three days.
      </SectionHead>
      <div className="stack">
        <CreateEndpointForm action={createEndpointAction} events={events} />
        <EndpointsTable
          endpoints={endpoints}
          rollAction={rollSecretAction}
          deleteAction={deleteEndpointAction}
          setEnabledAction={setEndpointEnabledAction}
          pingAction={pingEndpointAction}
        />
        <WebhookTrail lines={lines} />
      </div>
    </>
  );
});
