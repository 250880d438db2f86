import { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { DEFAULT_KEY_EXPIRY, keyExpirySchema } from "@/lib/schemas/key-expiry";
import { keyNameSchema } from "@/lib/schemas/key-name";
import { keyOverlapSchema, type KeyOverlap } from "@/lib/schemas/key-overlap";
import { keyScopesSchema } from "@/lib/schemas/key-scopes";
import { UsageError } from "./errors";

// Arguments of the commands that run against the database. The CLI builds them from flags; the
// server's command channel parses them again, since they cross a process boundary.

const org = z.string().min(1);

export const commandArgSchemas = {
  "keys.create": z.strictObject({
    org,
    name: keyNameSchema,
    scopes: keyScopesSchema,
    // An instant the CLI already resolved from --expires (parseExpiry), not the operator's text.
    expiresAt: z.iso.datetime().nullable(),
  }),
  "keys.list": z.strictObject({ org }),
  "keys.revoke": z.strictObject({ keyId: z.string().regex(UUID_SHAPE) }),
  "keys.roll": z.strictObject({ keyId: z.string().regex(UUID_SHAPE), overlap: keyOverlapSchema }),
  "orgs.list": z.strictObject({}),
  "seed.demo": z.strictObject({}),
  "reports.import": z.strictObject({ org, reports: z.array(z.unknown()) }),
  "db.migrate": z.strictObject({}),
} as const;

export type CommandName = keyof typeof commandArgSchemas;
export type CommandArgs<N extends CommandName> = z.infer<(typeof commandArgSchemas)[N]>;

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === "string" && Object.hasOwn(commandArgSchemas, value);
}

/** A flag's value through the rule every surface shares, its message prefixed with the flag. */
function parseFlag<T>(flag: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${flag}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** `--scopes reports:read,team:read`: the settings form's rule, from a comma-separated list. */
export function parseScopes(text: string): Scope[] {
  return parseFlag("scopes", keyScopesSchema, text.split(","));
}

export function parseKeyName(text: string): string {
  return parseFlag("name", keyNameSchema, text);
}

/**
 * `--expires 2026-12-31`, `2026-12-31T18:00:00+01:00`, `30d` or `never`, the settings form's rule; left out, the
 * default the form preselects (90 days).
 */
export function parseExpiry(text: string | undefined, now = new Date()): Date | null {
  return parseFlag("expires", keyExpirySchema(now), text ?? DEFAULT_KEY_EXPIRY);
}

/** `--overlap 24h`: how long the rolled key keeps working, the settings page's choices. */
export function parseOverlap(text: string): KeyOverlap {
  return parseFlag("overlap", keyOverlapSchema, text);
}

export function parseKeyId(text: string): string {
  if (!UUID_SHAPE.test(text))
    throw new UsageError(`"${text}" is not a key id: key ids are UUIDs (see \`sundown keys list\`)`);
  return text.toLowerCase();
}
