"use server";

import {
  createEndpoint,
  deleteEndpoint,
  pingEndpoint,
  redeliver,
  rollSecret,
  setEndpointEnabled,
} from "@/lib/settings/webhook-actions";

// Server actions of /settings/webhooks and its deliveries pages, each the settings kit's pipeline
// (lib/settings/action.ts), as the keys page's are.

export const createEndpointAction = createEndpoint.serve;
export const setEndpointEnabledAction = setEndpointEnabled.serve;
export const pingEndpointAction = pingEndpoint.serve;
export const rollSecretAction = rollSecret.serve;
export const deleteEndpointAction = deleteEndpoint.serve;
export const redeliverAction = redeliver.serve;
