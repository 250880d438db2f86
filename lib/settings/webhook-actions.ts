import type { z } from "zod";
import { KeyAccessError, requireKeyManager, type KeyManager } from "@/lib/session/require-key-manager";
import type { KeyActor } from "@/lib/data/api-keys";
import type { SessionUser } from "@/lib/data/users";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  redeliverWebhook,
  rollWebhookSecret,
  sendWebhookPing,
  setWebhookEndpointEnabled,
} from "@/lib/webhooks/endpoints";
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { DATABASE_UNAVAILABLE } from "./api-key-actions";
import {
  createEndpointFields,
  createEndpointInput,
  endpointInput,
  redeliverInput,
  rollSecretInput,
  setEnabledInput,
  singleField,
} from "./webhook-inputs";

// The logic behind the webhooks settings page's server actions, as lib/settings/api-key-actions.ts is for keys:
// each call re-checks the signed-in user (read from the database by the caller) and the role, and takes the
// organization from the session, never from the form. Another organization's endpoint or delivery is "not in
// your organization", exactly like an unknown id.

export type EndpointField = "url" | "events";

/** What a refused action says; `Done` is what its success carries back to the page. */
type ActionState<Done> = { status: "idle" } | { status: "error"; message: string } | Done;

export type CreateEndpointState =
  | { status: "idle" }
  | {
      status: "error";
      message: string;
      fieldErrors: Partial<Record<EndpointField, string>>;
      /** What the user typed, so a refused form keeps its values. */
      values: { url: string; events: string[] };
    }
  /** The secret travels in this one response and is never shown again. */
  | { status: "created"; endpoint: { id: string; url: string; events: string[]; secret: string } };

export type SetEnabledState = ActionState<{ status: "changed"; endpointId: string; enabled: boolean }>;
export type PingState = ActionState<{ status: "queued"; endpointId: string; deliveryId: string }>;
export type RollSecretState = ActionState<{
  status: "rolled";
  endpointId: string;
  secret: string;
  /** When the old secret stops signing; null when it stopped at once. */
  previousSecretExpiresAt: string | null;
}>;
export type DeleteEndpointState = ActionState<{ status: "deleted"; endpointId: string }>;
export type RedeliverState = ActionState<{ status: "queued"; deliveryId: string }>;

const ENDPOINT_NOT_FOUND = "This webhook endpoint does not exist in your organization.";
const DELIVERY_NOT_FOUND = "This delivery does not exist in your organization.";
const NOT_ADDED = "The endpoint was not added. Fix the fields marked below.";

// The keys page's refusals, worded for webhooks: the same rule (founders and leads only) guards both.
const REFUSALS: Record<KeyAccessError["reason"], string> = {
  signed_out: "Your session has ended. Sign in again to manage webhooks.",
  forbidden: "Only founders and leads can manage webhooks.",
};

type Refusal = { status: "error"; message: string };

function managerOf(user: SessionUser | null): KeyManager | Refusal {
  try {
    return requireKeyManager(user);
  } catch (error) {
    if (!(error instanceof KeyAccessError)) throw error;
    return { status: "error", message: REFUSALS[error.reason] };
  }
}

const actorOf = (user: KeyManager): KeyActor => ({ userId: user.userId, label: user.name });

const logFields = (manager: KeyManager, fields: Record<string, string>) => ({
  ...fields,
  organization_id: manager.organization.id,
  user_id: manager.userId,
});

type LogFields = ReturnType<typeof logFields>;

/**
 * Runs a change to one endpoint or delivery. The data layer's refusals become the page's message: an id that is
 * not the organization's reads as `notFound`; a conflict (redelivering to a disabled endpoint) says why.
 * Anything else still fails loudly.
 */
async function refusing<T>(
  work: () => Promise<T>,
  notFound: string,
  context: { what: string; fields: Record<string, unknown> },
): Promise<T | Refusal> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ApiError) || (error.code !== "not_found" && error.code !== "conflict")) throw error;
    log("warn", `${context.what} refused`, { ...context.fields, reason: error.code });
    return { status: "error", message: error.code === "not_found" ? notFound : error.message };
  }
}

function echoValues(formData: FormData) {
  const url = formData.get("url");
  return {
    // Bounded: the echo goes back in the response, whatever was posted.
    url: typeof url === "string" ? url.slice(0, 2048) : "",
    events: formData.getAll("events").filter((e): e is string => typeof e === "string"),
  };
}

/** The shared schemas' messages follow a flag on the CLI (`--events: choose…`); on the form each is a sentence. */
const sentence = (message: string) =>
  `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? "" : "."}`;

function firstErrors(error: z.ZodError): Partial<Record<EndpointField, string>> {
  const fields: Partial<Record<EndpointField, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if ((field === "url" || field === "events") && !fields[field]) fields[field] = sentence(issue.message);
  }
  return fields;
}

export async function createEndpointForUser(
  user: SessionUser | null,
  formData: FormData,
): Promise<CreateEndpointState> {
  const values = echoValues(formData);
  const manager = managerOf(user);
  if ("status" in manager) return { ...manager, fieldErrors: {}, values };
  const parsed = createEndpointInput.safeParse(createEndpointFields(formData));
  if (!parsed.success) {
    return { status: "error", message: NOT_ADDED, fieldErrors: firstErrors(parsed.error), values };
  }
  try {
    const created = await createWebhookEndpoint({
      organizationId: manager.organization.id,
      url: parsed.data.url,
      events: parsed.data.events,
      actor: actorOf(manager),
    });
    log("info", "webhook endpoint created", logFields(manager, { endpoint_id: created.id }));
    const { id, url, events, secret } = created;
    return { status: "created", endpoint: { id, url, events, secret } };
  } catch (error) {
    // The URL rules' refusal (scheme, credentials, a private or unresolvable address), said next to the field.
    if (!(error instanceof ApiError) || error.code !== "invalid_parameter") throw error;
    log("warn", "webhook endpoint refused", logFields(manager, { reason: error.message }));
    return { status: "error", message: NOT_ADDED, fieldErrors: { url: error.message }, values };
  }
}

/**
 * One change to an endpoint or delivery, as every action but create makes it: the user must manage webhooks, the
 * form must parse (anything else reads as `notFound`, exactly like another organization's id, unless `invalid`
 * says better), and `run`'s data-layer refusals become the page's message (refusing).
 */
async function changeForUser<Input, Done>(
  user: SessionUser | null,
  formData: FormData,
  change: {
    schema: z.ZodType<Input>;
    /** The form fields the schema reads, each sent once (singleField). */
    fields: string[];
    notFound: string;
    /** Why a form that does not parse is refused, when that is not an unknown id. */
    invalid?: (error: z.ZodError) => string | undefined;
    /** The change as the log names it, e.g. "webhook ping" (logged as "webhook ping refused"). */
    what: string;
    /** What every log line of the change carries besides the user and organization, e.g. its endpoint's id. */
    logIds: (input: Input) => Record<string, string>;
    run: (input: Input, manager: KeyManager, fields: LogFields) => Promise<Done>;
  },
): Promise<Done | Refusal> {
  const manager = managerOf(user);
  if ("status" in manager) return manager;
  const parsed = change.schema.safeParse(
    Object.fromEntries(change.fields.map((name) => [name, singleField(formData, name)])),
  );
  if (!parsed.success) return { status: "error", message: change.invalid?.(parsed.error) ?? change.notFound };
  const fields = logFields(manager, change.logIds(parsed.data));
  return refusing(() => change.run(parsed.data, manager, fields), change.notFound, { what: change.what, fields });
}

const byEndpoint = ({ endpointId }: { endpointId: string }) => ({ endpoint_id: endpointId });

export async function setEndpointEnabledForUser(
  user: SessionUser | null,
  formData: FormData,
): Promise<SetEnabledState> {
  return changeForUser(user, formData, {
    schema: setEnabledInput,
    fields: ["endpointId", "enabled"],
    notFound: ENDPOINT_NOT_FOUND,
    what: "webhook endpoint change",
    logIds: byEndpoint,
    run: async ({ endpointId, enabled }, manager, fields) => {
      await setWebhookEndpointEnabled(manager.organization.id, endpointId, enabled, actorOf(manager));
      log("info", enabled ? "webhook endpoint enabled" : "webhook endpoint disabled", fields);
      return { status: "changed" as const, endpointId, enabled };
    },
  });
}

/** Queues a ping; the caller starts its delivery (lib/webhooks/soon.ts, which needs a request). */
export async function pingEndpointForUser(user: SessionUser | null, formData: FormData): Promise<PingState> {
  return changeForUser(user, formData, {
    schema: endpointInput,
    fields: ["endpointId"],
    notFound: ENDPOINT_NOT_FOUND,
    what: "webhook ping",
    logIds: byEndpoint,
    run: async ({ endpointId }, manager, fields) => {
      const { deliveryId } = await sendWebhookPing(manager.organization.id, endpointId);
      log("info", "webhook ping queued", { ...fields, delivery_id: deliveryId });
      return { status: "queued" as const, endpointId, deliveryId };
    },
  });
}

export async function rollSecretForUser(
  user: SessionUser | null,
  formData: FormData,
  now = new Date(),
): Promise<RollSecretState> {
  return changeForUser(user, formData, {
    schema: rollSecretInput,
    fields: ["endpointId", "overlap"],
    notFound: ENDPOINT_NOT_FOUND,
    // An overlap that is not one of the choices is said as such; a bad id still reads as an unknown one.
    invalid: (error) => error.issues.find((i) => i.path[0] === "overlap")?.message,
    what: "webhook secret roll",
    logIds: byEndpoint,
    run: async ({ endpointId, overlap }, manager, fields) => {
      const rolled = await rollWebhookSecret(manager.organization.id, endpointId, {
        overlapMs: KEY_OVERLAPS[overlap],
        actor: actorOf(manager),
        now,
      });
      log("info", "webhook secret rolled", { ...fields, overlap });
      return {
        status: "rolled" as const,
        endpointId,
        secret: rolled.secret,
        previousSecretExpiresAt: rolled.previousSecretExpiresAt?.toISOString() ?? null,
      };
    },
  });
}

export async function deleteEndpointForUser(
  user: SessionUser | null,
  formData: FormData,
): Promise<DeleteEndpointState> {
  return changeForUser(user, formData, {
    schema: endpointInput,
    fields: ["endpointId"],
    notFound: ENDPOINT_NOT_FOUND,
    what: "webhook endpoint delete",
    logIds: byEndpoint,
    run: async ({ endpointId }, manager, fields) => {
      await deleteWebhookEndpoint(manager.organization.id, endpointId, actorOf(manager));
      log("info", "webhook endpoint deleted", fields);
      return { status: "deleted" as const, endpointId };
    },
  });
}

/** Makes a delivery due again; the caller starts its delivery (lib/webhooks/soon.ts). */
export async function redeliverForUser(user: SessionUser | null, formData: FormData): Promise<RedeliverState> {
  return changeForUser(user, formData, {
    schema: redeliverInput,
    fields: ["deliveryId"],
    notFound: DELIVERY_NOT_FOUND,
    what: "webhook redelivery",
    logIds: ({ deliveryId }) => ({ delivery_id: deliveryId }),
    run: async ({ deliveryId }, manager, fields) => {
      await redeliverWebhook(manager.organization.id, deliveryId);
      log("info", "webhook redelivery queued", fields);
      return { status: "queued" as const, deliveryId };
    },
  });
}

/** What an action answers while the database does not, the create form keeping what was typed. */
export function unavailableCreateState(formData: FormData): CreateEndpointState {
  return { status: "error", message: DATABASE_UNAVAILABLE, fieldErrors: {}, values: echoValues(formData) };
}
