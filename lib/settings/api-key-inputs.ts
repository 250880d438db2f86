import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { keyExpirySchema } from "@/lib/schemas/key-expiry";
import { keyNameSchema } from "@/lib/schemas/key-name";
import { keyOverlapSchema } from "@/lib/schemas/key-overlap";
import { keyScopesSchema } from "@/lib/schemas/key-scopes";

/**
 * The create form's expiry choices. The presets are days from now, written as the CLI's --expires takes them
 * (keyExpirySchema reads them, see createFormFields), so both surfaces share one rule; "date" takes the date field.
 */
export type ExpiryChoice = "30d" | "90d" | "365d" | "never" | "date";

/**
 * Preselected on the form. A key that never expires is the one that leaks and goes on working unnoticed for
 * years; 30 days would have founders re-issuing agent keys every month. 90 days is the common rotation period,
 * and the page's warning a week ahead leaves time to create the next key. "Never" stays one choice away.
 */
export const DEFAULT_EXPIRY_CHOICE: ExpiryChoice = "90d";

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

const keyId = uuid.transform((id) => id.toLowerCase());

export const revokeApiKeyInput = z.object({ keyId });

export const rollApiKeyInput = z.object({ keyId, overlap: keyOverlapSchema });

/**
 * Form fields as the server sees them. Files and repeated single fields are refused by the schema. The expiry
 * choice becomes the text keyExpirySchema judges: a preset, the date field (also when no choice is sent), or
 * nothing for "never"; any other choice is passed on and refused as not a time.
 */
export function createFormFields(formData: FormData) {
  const single = (name: string) => {
    const values = formData.getAll(name);
    return values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
  };
  const choice = single("expiry");
  const expiresAt =
    choice === undefined || choice === "date" ? single("expiresAt") : choice === "never" ? undefined : choice;
  return { name: single("name"), scopes: formData.getAll("scopes"), expiresAt: expiresAt || undefined };
}
