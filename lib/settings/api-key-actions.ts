import type { Scope } from "@/lib/auth/scopes";
import { createApiKey, revokeApiKey, rollApiKey, type CreatedApiKey } from "@/lib/data/api-keys";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { settingsAction, settingsFormAction, type StateOf } from "./action";
import { createApiKeyInput, createFormFields, revokeApiKeyInput, rollApiKeyInput } from "./api-key-inputs";
import { singleFields } from "./form-fields";

// Settings → API keys: its actions on the settings kit (lib/settings/action.ts), which checks the session, the
// role and the form before each change, and logs and revalidates after it.

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

const NOT_IN_ORGANIZATION = "This key does not exist in your organization.";

const CREATE_FORM = {
  fields: ["name", "scopes", "expiresAt"],
  echo: { name: "text", scopes: "list", expiry: "text", expiresAt: "text" },
  invalid: "The key was not created. Fix the fields marked below.",
} as const;

export type CreateKeyField = (typeof CREATE_FORM.fields)[number];

export const createKey = settingsFormAction({
  section: "api-keys",
  read: createFormFields,
  schema: createApiKeyInput,
  form: CREATE_FORM,
  run: async ({ name, scopes, expiresAt }, { organizationId, actor }) => {
    const created = await createApiKey({ organizationId, name, scopes, expiresAt, actor });
    return { status: "created" as const, key: newKeyOf(created) };
  },
  audit: { action: "api-keys.create", done: ({ key }) => ({ key_id: key.id }) },
});

export const revokeKey = settingsAction({
  section: "api-keys",
  read: singleFields("keyId"),
  schema: revokeApiKeyInput,
  notFound: NOT_IN_ORGANIZATION,
  run: async ({ keyId }, { organizationId, actor }) => {
    const { revokedAt } = await revokeApiKey(organizationId, keyId, actor);
    return { status: "revoked" as const, keyId, revokedAt: revokedAt.toISOString() };
  },
  audit: { action: "api-keys.revoke", ids: ({ keyId }) => ({ key_id: keyId }) },
});

export const rollKey = settingsAction({
  section: "api-keys",
  read: singleFields("keyId", "overlap"),
  schema: rollApiKeyInput,
  notFound: NOT_IN_ORGANIZATION,
  // An overlap that is not one of the choices is said as such; a bad id still reads as an unknown one.
  invalid: (error) => error.issues.find((issue) => issue.path[0] === "overlap")?.message,
  run: async ({ keyId, overlap }, { organizationId, actor, now }) => {
    const { key, previous } = await rollApiKey(organizationId, keyId, { overlapMs: KEY_OVERLAPS[overlap], actor, now });
    return {
      status: "rolled" as const,
      key: newKeyOf(key),
      previous: { id: previous.id, stopsAt: previous.stopsAt.toISOString() },
    };
  },
  audit: {
    action: "api-keys.roll",
    ids: ({ keyId, overlap }) => ({ key_id: keyId, overlap }),
    done: ({ key }) => ({ new_key_id: key.id }),
  },
});

export type CreateKeyState = StateOf<typeof createKey>;
export type RevokeKeyState = StateOf<typeof revokeKey>;
export type RollKeyState = StateOf<typeof rollKey>;
