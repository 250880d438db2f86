import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rollWebhookSecret,
  setWebhookEndpointEnabled,
} from "@/lib/data/webhook-endpoints";
import { redeliverWebhook, sendWebhookPing } from "@/lib/webhooks/pushes";
import { checkWebhookTarget } from "@/lib/webhooks/target";
import { deliverSoon } from "@/lib/webhooks/soon";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { settingsAction, settingsFormAction, type StateOf } from "./action";
import { singleFields } from "./form-fields";
import {
  createEndpointFields,
  createEndpointInput,
  endpointInput,
  redeliverInput,
  rollSecretInput,
  setEnabledInput,
} from "./webhook-inputs";

// Settings → Webhooks: its actions on the settings kit (lib/settings/action.ts), as Settings → API keys has its own.
// The data layer's refusals are the page's messages: an endpoint or delivery of another organization reads as an
// unknown one, and its other refusals (redelivering to a disabled endpoint, a limit reached) in their own words.

const ENDPOINT_NOT_FOUND = "This webhook endpoint does not exist in your organization.";
const DELIVERY_NOT_FOUND = "This delivery does not exist in your organization.";

const CREATE_FORM = {
  fields: ["url", "events"],
  echo: { url: "text", events: "list" },
  invalid: "The endpoint was not added. Fix the fields marked below.",
  // The URL rules' refusal (scheme, credentials, a private or unresolvable address), said next to the field.
  invalidField: "url",
} as const;

export type EndpointField = (typeof CREATE_FORM.fields)[number];

const byEndpoint = ({ endpointId }: { endpointId: string }) => ({ endpoint_id: endpointId });

export const createEndpoint = settingsFormAction({
  section: "webhooks",
  read: createEndpointFields,
  schema: createEndpointInput,
  form: CREATE_FORM,
  run: async ({ url, events }, { organizationId, actor }) => {
    const created = await createWebhookEndpoint({ organizationId, url: await checkWebhookTarget(url), events, actor });
    // The secret travels in this one response and is never shown again.
    return {
      status: "created" as const,
      endpoint: { id: created.id, url: created.url, events: created.events, secret: created.secret },
    };
  },
  audit: { action: "webhooks.create", done: ({ endpoint }) => ({ endpoint_id: endpoint.id }) },
});

export const setEndpointEnabled = settingsAction({
  section: "webhooks",
  read: singleFields("endpointId", "enabled"),
  schema: setEnabledInput,
  notFound: ENDPOINT_NOT_FOUND,
  run: async ({ endpointId, enabled }, { organizationId, actor }) => {
    await setWebhookEndpointEnabled(organizationId, endpointId, enabled, actor);
    return { status: "changed" as const, endpointId, enabled };
  },
  audit: {
    action: "webhooks.set-enabled",
    ids: ({ endpointId, enabled }) => ({ ...byEndpoint({ endpointId }), enabled: String(enabled) }),
  },
});

/** Queues a ping and, from the page, sends it at once: the person who pressed Ping is watching for it. */
export const pingEndpoint = settingsAction({
  section: "webhooks",
  read: singleFields("endpointId"),
  schema: endpointInput,
  notFound: ENDPOINT_NOT_FOUND,
  run: async ({ endpointId }, { organizationId }) => {
    const { deliveryId } = await sendWebhookPing(organizationId, endpointId);
    return { status: "queued" as const, endpointId, deliveryId };
  },
  audit: { action: "webhooks.ping", ids: byEndpoint, done: ({ deliveryId }) => ({ delivery_id: deliveryId }) },
  after: () => deliverSoon(),
});

export const rollSecret = settingsAction({
  section: "webhooks",
  read: singleFields("endpointId", "overlap"),
  schema: rollSecretInput,
  notFound: ENDPOINT_NOT_FOUND,
  // An overlap that is not one of the choices is said as such; a bad id still reads as an unknown one.
  invalid: (error) => error.issues.find((issue) => issue.path[0] === "overlap")?.message,
  run: async ({ endpointId, overlap }, { organizationId, actor, now }) => {
    const rolled = await rollWebhookSecret(organizationId, endpointId, {
      overlapMs: KEY_OVERLAPS[overlap],
      actor,
      now,
    });
    return {
      status: "rolled" as const,
      endpointId,
      secret: rolled.secret,
      // When the old secret stops signing; null when it stopped at once.
      previousSecretExpiresAt: rolled.previousSecretExpiresAt?.toISOString() ?? null,
    };
  },
  audit: { action: "webhooks.roll-secret", ids: ({ endpointId, overlap }) => ({ endpoint_id: endpointId, overlap }) },
});

export const deleteEndpoint = settingsAction({
  section: "webhooks",
  read: singleFields("endpointId"),
  schema: endpointInput,
  notFound: ENDPOINT_NOT_FOUND,
  run: async ({ endpointId }, { organizationId, actor }) => {
    await deleteWebhookEndpoint(organizationId, endpointId, actor);
    return { status: "deleted" as const, endpointId };
  },
  audit: { action: "webhooks.delete", ids: byEndpoint },
});

/** Makes a delivery due again and, from the page, sends it at once. */
export const redeliver = settingsAction({
  section: "webhooks",
  read: singleFields("deliveryId"),
  schema: redeliverInput,
  notFound: DELIVERY_NOT_FOUND,
  run: async ({ deliveryId }, { organizationId }) => {
    await redeliverWebhook(organizationId, deliveryId);
    return { status: "queued" as const, deliveryId };
  },
  audit: { action: "webhooks.redeliver", ids: ({ deliveryId }) => ({ delivery_id: deliveryId }) },
  after: () => deliverSoon(),
});

export type CreateEndpointState = StateOf<typeof createEndpoint>;
export type SetEnabledState = StateOf<typeof setEndpointEnabled>;
export type PingState = StateOf<typeof pingEndpoint>;
export type RollSecretState = StateOf<typeof rollSecret>;
export type DeleteEndpointState = StateOf<typeof deleteEndpoint>;
export type RedeliverState = StateOf<typeof redeliver>;
