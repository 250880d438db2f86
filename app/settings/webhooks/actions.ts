"use server";

import { revalidatePath } from "next/cache";
import { getSessionUser } from "@/lib/session/session";
import { DATABASE_UNAVAILABLE, refuseWhileDatabaseUnavailable } from "@/lib/settings/api-key-actions";
import {
  createEndpointForUser,
  deleteEndpointForUser,
  pingEndpointForUser,
  redeliverForUser,
  rollSecretForUser,
  setEndpointEnabledForUser,
  unavailableCreateState,
  type CreateEndpointState,
  type DeleteEndpointState,
  type PingState,
  type RedeliverState,
  type RollSecretState,
  type SetEnabledState,
} from "@/lib/settings/webhook-actions";
import { deliverSoon } from "@/lib/webhooks/soon";

// Server actions of /settings/webhooks and its deliveries pages. Like the keys page's, they authenticate by the
// session cookie only and rely on Next's built-in Origin check (and proxy.ts) against cross-site posts.

const unavailable = () => ({ status: "error" as const, message: DATABASE_UNAVAILABLE });

/** The list, each endpoint's deliveries page and the trail all change with any of these. */
const revalidateWebhookPages = () => revalidatePath("/settings/webhooks", "layout");

export async function createEndpointAction(
  _previous: CreateEndpointState,
  formData: FormData,
): Promise<CreateEndpointState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => createEndpointForUser(await getSessionUser(), formData),
    () => unavailableCreateState(formData),
  );
  if (state.status === "created") revalidateWebhookPages();
  return state;
}

export async function setEndpointEnabledAction(
  _previous: SetEnabledState,
  formData: FormData,
): Promise<SetEnabledState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => setEndpointEnabledForUser(await getSessionUser(), formData),
    unavailable,
  );
  if (state.status === "changed") revalidateWebhookPages();
  return state;
}

export async function pingEndpointAction(_previous: PingState, formData: FormData): Promise<PingState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => pingEndpointForUser(await getSessionUser(), formData),
    unavailable,
  );
  if (state.status === "queued") {
    // Sent now, not at the delivery loop's next poll: the person who pressed Ping is watching for it.
    deliverSoon();
    revalidateWebhookPages();
  }
  return state;
}

export async function rollSecretAction(_previous: RollSecretState, formData: FormData): Promise<RollSecretState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => rollSecretForUser(await getSessionUser(), formData),
    unavailable,
  );
  if (state.status === "rolled") revalidateWebhookPages();
  return state;
}

export async function deleteEndpointAction(
  _previous: DeleteEndpointState,
  formData: FormData,
): Promise<DeleteEndpointState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => deleteEndpointForUser(await getSessionUser(), formData),
    unavailable,
  );
  if (state.status === "deleted") revalidateWebhookPages();
  return state;
}

export async function redeliverAction(_previous: RedeliverState, formData: FormData): Promise<RedeliverState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => redeliverForUser(await getSessionUser(), formData),
    unavailable,
  );
  if (state.status === "queued") {
    deliverSoon();
    revalidateWebhookPages();
  }
  return state;
}
