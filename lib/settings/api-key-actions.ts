import type { z } from "zod";
import { KeyAccessError, requireKeyManager, type KeyManager } from "@/lib/auth/require-key-manager";
import type { Scope } from "@/lib/auth/scopes";
import { createApiKey, revokeApiKey, type KeyActor } from "@/lib/data/api-keys";
import type { SessionUser } from "@/lib/data/users";
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { createApiKeyInput, createFormFields, revokeApiKeyInput } from "./api-key-inputs";

// The logic behind the settings page's server actions. Each call re-checks the signed-in user (read from the
// database by the caller), the role and the organization; the organization always comes from the session,
// never from the form.

export type CreateKeyField = "name" | "scopes" | "expiresAt";

export type CreateKeyState =
  | { status: "idle" }
  | {
      status: "error";
      message: string;
      fieldErrors: Partial<Record<CreateKeyField, string>>;
      /** What the user typed, so a refused form keeps its values. */
      values: { name: string; scopes: string[]; expiresAt: string };
    }
  | {
      status: "created";
      /** The secret travels once, in this response; it is stored nowhere. */
      key: { id: string; name: string; secret: string; scopes: Scope[]; expiresAt: string | null };
    };

export type RevokeKeyState =
  { status: "idle" } | { status: "error"; message: string } | { status: "revoked"; keyId: string; revokedAt: string };

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
  let manager: KeyManager;
  try {
    manager = requireKeyManager(user);
  } catch (error) {
    if (!(error instanceof KeyAccessError)) throw error;
    return { status: "error", message: error.message, fieldErrors: {}, values: echoValues(formData) };
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
  return {
    status: "created",
    key: {
      id: created.id,
      name: created.name,
      secret: created.key,
      scopes: created.scopes,
      expiresAt: created.expiresAt?.toISOString() ?? null,
    },
  };
}

export async function revokeKeyForUser(user: SessionUser | null, formData: FormData): Promise<RevokeKeyState> {
  let manager: KeyManager;
  try {
    manager = requireKeyManager(user);
  } catch (error) {
    if (!(error instanceof KeyAccessError)) throw error;
    return { status: "error", message: error.message };
  }
  const parsed = revokeApiKeyInput.safeParse({ keyId: formData.get("keyId") });
  if (!parsed.success) return { status: "error", message: "This key does not exist in your organization." };
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
      return { status: "error", message: "This key does not exist in your organization." };
    }
    throw error;
  }
}
