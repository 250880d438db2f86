import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { keyExpirySchema } from "@/lib/schemas/key-expiry";
import { keyNameSchema } from "@/lib/schemas/key-name";
import { keyScopesSchema } from "@/lib/schemas/key-scopes";

/**
 * The create form: name, scopes and expiry by the rules the CLI applies too (lib/schemas). An empty
 * expiry field means a key that does not expire. `now` is a parameter so the rule is testable.
 */
export function createApiKeyInput(now = new Date()) {
  return z.object({
    name: keyNameSchema,
    scopes: keyScopesSchema,
    expiresAt: keyExpirySchema(now)
      .optional()
      .transform((at) => at ?? null),
  });
}

export const revokeApiKeyInput = z.object({
  keyId: uuid.transform((id) => id.toLowerCase()),
});

/** Form fields as the server sees them. Files and repeated single fields are refused by the schema. */
export function createFormFields(formData: FormData) {
  const single = (name: string) => {
    const values = formData.getAll(name);
    return values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
  };
  return { name: single("name"), scopes: formData.getAll("scopes"), expiresAt: single("expiresAt") || undefined };
}
