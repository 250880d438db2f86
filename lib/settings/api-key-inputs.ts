import { z } from "zod";
import { SCOPES, scopeSchema } from "@/lib/auth/scopes";
import { uuid } from "@/lib/schemas/common";
import { keyNameSchema } from "@/lib/schemas/key-name";

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` as the UTC midnight that starts the day, or null for a date that does not exist. */
export function parseIsoDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value ? date : null;
}

/** The earliest expiry date the form accepts: tomorrow in UTC. */
export function minExpiryDate(now = new Date()): string {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS).toISOString().slice(0, 10);
}

/**
 * The create form. A key expires at 00:00 UTC on the chosen date, which must lie in the future.
 * `now` is a parameter so the rule is testable.
 */
export function createApiKeyInput(now = new Date()) {
  return z.object({
    name: keyNameSchema,
    scopes: z
      .array(scopeSchema, { error: "Choose at least one scope." })
      .min(1, "Choose at least one scope.")
      .max(SCOPES.length)
      .transform((scopes) => [...new Set(scopes)]),
    expiresAt: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (!value) return null;
        const date = parseIsoDate(value);
        if (!date) {
          ctx.addIssue({ code: "custom", message: "Enter a date as YYYY-MM-DD." });
          return z.NEVER;
        }
        if (date.getTime() <= now.getTime()) {
          ctx.addIssue({ code: "custom", message: "Choose a date in the future (the key expires at 00:00 UTC that day)." });
          return z.NEVER;
        }
        return date;
      }),
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
