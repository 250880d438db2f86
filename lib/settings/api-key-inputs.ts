import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { DEFAULT_KEY_EXPIRY, keyExpirySchema } from "@/lib/schemas/key-expiry";
import { keyNameSchema } from "@/lib/schemas/key-name";
import { keyOverlapSchema } from "@/lib/schemas/key-overlap";
import { keyScopesSchema } from "@/lib/schemas/key-scopes";
import { singleField } from "./form-fields";

/**
 * The create form's expiry choices. The presets are days from now, written as the CLI's --expires takes them
 * (keyExpirySchema reads them, see createFormFields), so both surfaces share one rule; "date" takes the date field.
 */
export type ExpiryChoice = "30d" | "90d" | "365d" | "never" | "date";

/** Preselected on the form: the default every surface shares (lib/schemas/key-expiry.ts says why 90 days). */
export const DEFAULT_EXPIRY_CHOICE: ExpiryChoice = DEFAULT_KEY_EXPIRY;

/**
 * The create form: name, scopes and expiry by the rules the CLI applies too (lib/schemas). `now` is a parameter
 * so the rule is testable.
 */
export function createApiKeyInput(now = new Date()) {
  return z.object({ name: keyNameSchema, scopes: keyScopesSchema, expiresAt: keyExpirySchema(now) });
}

const keyId = uuid.transform((id) => id.toLowerCase());

export const revokeApiKeyInput = z.object({ keyId });

export const rollApiKeyInput = z.object({ keyId, overlap: keyOverlapSchema });

/**
 * Form fields as the server sees them. Files and repeated single fields are refused by the schema. The expiry
 * choice becomes the text keyExpirySchema judges: a preset, "never", or the date field for "On a date…" (empty
 * there is refused: a date was asked for). A request with no choice (the page always sends one) takes the date
 * field when given, else the default; any other choice is passed on and refused as not a time.
 */
export function createFormFields(formData: FormData) {
  const choice = singleField(formData, "expiry");
  const date = singleField(formData, "expiresAt");
  const expiresAt = choice === "date" ? (date ?? "") : choice === undefined ? date || DEFAULT_KEY_EXPIRY : choice;
  return { name: singleField(formData, "name"), scopes: formData.getAll("scopes"), expiresAt };
}
