import type { z } from "zod";
import { KeyAccessError, requireKeyManager, type KeyManager } from "@/lib/session/require-key-manager";
import type { Scope } from "@/lib/auth/scopes";
import { createApiKey, revokeApiKey, rollApiKey, type CreatedApiKey, type KeyActor } from "@/lib/data/api-keys";
import type { SessionUser } from "@/lib/data/users";
import { ApiError, isDatabaseUnavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { createApiKeyInput, createFormFields, revokeApiKeyInput, rollApiKeyInput } from "./api-key-inputs";

// The logic behind the settings page's server actions. Each call re-checks the signed-in user (read from the
// database by the caller), the role and the organization; the organization always comes from the session,
// never from the form.

export type CreateKeyField = "name" | "scopes" | "expiresAt";

/** A new key as the page shows it once: the secret travels in this one response and is stored nowhere. */
export interface NewKey {
  id: string;
  name: string;
  secret: string;
  scopes: Scope[];
  expiresAt: string | null;
}

function newKeyOf(created: CreatedApiKey): NewKey {
  return {
    id: created.id,
    name: created.name,
    secret: created.key,
    scopes: created.scopes,
    expiresAt: created.expiresAt?.toISOString() ?? null,
  };
}

export type CreateKeyState =
  | { status: "idle" }
  | {
      status: "error";
      message: string;
      fieldErrors: Partial<Record<CreateKeyField, string>>;
      /** What the user typed, so a refused form keeps its values. */
      values: { name: string; scopes: string[]; expiry: string; expiresAt: string };
    }
  | { status: "created"; key: NewKey };

export type RevokeKeyState =
  { status: "idle" } | { status: "error"; message: string } | { status: "revoked"; keyId: string; revokedAt: string };

export type RollKeyState =
  | { status: "idle" }
  | { status: "error"; message: string }
  | { status: "rolled"; key: NewKey; previous: { id: string; stopsAt: string } };

const NOT_IN_ORGANIZATION = "This key does not exist in your organization.";

/** What an action answers while the database does not (the API's 503, said on the page). */
export const DATABASE_UNAVAILABLE =
  "Sundown cannot reach its database right now, so nothing was changed. Try again in a moment.";

/**
 * Runs an action (reading the session included); a database that does not answer in DATABASE_TIMEOUT_MS becomes
 * `refusal`, shown on the page, instead of a 500. Anything else still fails loudly.
 */
export async function refuseWhileDatabaseUnavailable<S>(work: () => Promise<S>, refusal: () => S): Promise<S> {
  try {
    return await work();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    log("warn", "settings action refused: the database did not answer", { error: (error as Error).message });
    return refusal();
  }
}

export function unavailableCreateState(formData: FormData): CreateKeyState {
  return { status: "error", message: DATABASE_UNAVAILABLE, fieldErrors: {}, values: echoValues(formData) };
}

/** The signed-in founder or lead, or why this user may not manage keys (signed out, a member). */
function keyManagerOf(user: SessionUser | null): KeyManager | { refused: string } {
  try {
    return requireKeyManager(user);
  } catch (error) {
    if (!(error instanceof KeyAccessError)) throw error;
    return { refused: error.message };
  }
}

function actorOf(user: KeyManager): KeyActor {
  return { userId: user.userId, label: user.name };
}

function echoValues(formData: FormData) {
  const text = (name: string) => {
    const v = formData.get(name);
    return typeof v === "string" ? v.slice(0, 200) : "";
  };
  return {
    name: text("name"),
    scopes: formData.getAll("scopes").filter((s): s is string => typeof s === "string"),
    expiry: text("expiry"),
    expiresAt: text("expiresAt"),
  };
}

function firstErrors(error: z.ZodError): Partial<Record<CreateKeyField, string>> {
  const fields: Partial<Record<CreateKeyField, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if ((field === "name" || field === "scopes" || field === "expiresAt") && !fields[field]) {
      fields[field] = issue.message;
    }
  }
  return fields;
}

export async function createKeyForUser(
  user: SessionUser | null,
  formData: FormData,
  now = new Date(),
): Promise<CreateKeyState> {
  const manager = keyManagerOf(user);
  if ("refused" in manager) {
    return { status: "error", message: manager.refused, fieldErrors: {}, values: echoValues(formData) };
  }
  const parsed = createApiKeyInput(now).safeParse(createFormFields(formData));
  if (!parsed.success) {
    return {
      status: "error",
      message: "The key was not created. Fix the fields marked below.",
      fieldErrors: firstErrors(parsed.error),
      values: echoValues(formData),
    };
  }
  const created = await createApiKey({
    organizationId: manager.organization.id,
    name: parsed.data.name,
    scopes: parsed.data.scopes,
    expiresAt: parsed.data.expiresAt,
    actor: actorOf(manager),
  });
  log("info", "api key created", {
    key_id: created.id,
    organization_id: manager.organization.id,
    user_id: manager.userId,
  });
  return { status: "created", key: newKeyOf(created) };
}

export async function revokeKeyForUser(user: SessionUser | null, formData: FormData): Promise<RevokeKeyState> {
  const manager = keyManagerOf(user);
  if ("refused" in manager) return { status: "error", message: manager.refused };
  const parsed = revokeApiKeyInput.safeParse({ keyId: formData.get("keyId") });
  if (!parsed.success) return { status: "error", message: NOT_IN_ORGANIZATION };
  try {
    // Scoped by the session's organization: another organization's key id is "not found", like an unknown one.
    const { revokedAt } = await revokeApiKey(manager.organization.id, parsed.data.keyId, actorOf(manager));
    log("info", "api key revoked", {
      key_id: parsed.data.keyId,
      organization_id: manager.organization.id,
      user_id: manager.userId,
    });
    return { status: "revoked", keyId: parsed.data.keyId, revokedAt: revokedAt.toISOString() };
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") {
      log("warn", "api key revoke refused", {
        key_id: parsed.data.keyId,
        organization_id: manager.organization.id,
        user_id: manager.userId,
      });
      return { status: "error", message: NOT_IN_ORGANIZATION };
    }
    throw error;
  }
}

export async function rollKeyForUser(
  user: SessionUser | null,
  formData: FormData,
  now = new Date(),
): Promise<RollKeyState> {
  const manager = keyManagerOf(user);
  if ("refused" in manager) return { status: "error", message: manager.refused };
  const parsed = rollApiKeyInput.safeParse({ keyId: formData.get("keyId"), overlap: formData.get("overlap") });
  if (!parsed.success) {
    const overlapIssue = parsed.error.issues.find((i) => i.path[0] === "overlap");
    return { status: "error", message: overlapIssue?.message ?? NOT_IN_ORGANIZATION };
  }
  const { keyId, overlap } = parsed.data;
  const fields = { key_id: keyId, organization_id: manager.organization.id, user_id: manager.userId };
  try {
    // Scoped by the session's organization, as revoking is.
    const { key, previous } = await rollApiKey(manager.organization.id, keyId, {
      overlapMs: KEY_OVERLAPS[overlap],
      actor: actorOf(manager),
      now,
    });
    log("info", "api key rolled", { ...fields, new_key_id: key.id, overlap });
    return {
      status: "rolled",
      key: newKeyOf(key),
      previous: { id: previous.id, stopsAt: previous.stopsAt.toISOString() },
    };
  } catch (error) {
    if (!(error instanceof ApiError) || (error.code !== "not_found" && error.code !== "conflict")) throw error;
    log("warn", "api key roll refused", { ...fields, reason: error.code });
    return { status: "error", message: error.code === "not_found" ? NOT_IN_ORGANIZATION : error.message };
  }
}
