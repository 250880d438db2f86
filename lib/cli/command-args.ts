import { z } from "zod";
import { SCOPES, isScope, scopeSchema, type Scope } from "@/lib/auth/scopes";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { keyNameSchema } from "@/lib/schemas/key-name";
import { UsageError } from "./errors";

// Arguments of the commands that run against the database. The CLI builds them from flags; the
// server's command channel parses them again, since they cross a process boundary.

const org = z.string().min(1);

export const commandArgSchemas = {
  "keys.create": z.strictObject({
    org,
    name: keyNameSchema,
    scopes: z.array(scopeSchema).min(1),
    expiresAt: z.iso.datetime().nullable(),
  }),
  "keys.list": z.strictObject({ org }),
  "keys.revoke": z.strictObject({ keyId: z.string().regex(UUID_SHAPE) }),
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

/** `reports:read,team:read` → scopes, sorted and without duplicates. */
export function parseScopes(text: string): Scope[] {
  const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new UsageError(`--scopes needs at least one scope: ${SCOPES.join(", ")}`);
  const unknown = parts.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new UsageError(`--scopes: unknown scope ${unknown.map((s) => `"${s}"`).join(", ")}; valid scopes are ${SCOPES.join(", ")}`);
  }
  return [...new Set(parts as Scope[])].sort();
}

export function parseKeyName(text: string): string {
  const parsed = keyNameSchema.safeParse(text);
  if (!parsed.success) throw new UsageError(`--name: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

const RELATIVE_DAYS = /^(\d{1,4})d$/;
const DAY_MS = 86_400_000;

/**
 * `--expires`: a date (`2026-12-31`, meaning 00:00 UTC that day), a timestamp with a time zone
 * (`2026-12-31T18:00:00+01:00`), or a number of days from now (`30d`). Must lie in the future.
 */
export function parseExpiry(text: string, now = new Date()): Date {
  const hint = "use a date (2026-12-31), a timestamp with a time zone (2026-12-31T18:00:00Z) or days from now (30d)";
  let at: Date | undefined;
  const relative = RELATIVE_DAYS.exec(text);
  if (relative) {
    const days = Number(relative[1]);
    if (days < 1) throw new UsageError(`--expires "${text}": must be at least 1d`);
    at = new Date(now.getTime() + days * DAY_MS);
    // Both ISO patterns check the calendar: February 30 is refused, not rolled over into March.
  } else if (z.iso.date().safeParse(text).success) {
    at = new Date(`${text}T00:00:00Z`);
  } else if (z.iso.datetime({ offset: true }).safeParse(text).success) {
    at = new Date(text);
  }
  if (!at) throw new UsageError(`--expires "${text}" is not a valid date: ${hint}`);
  if (at.getTime() <= now.getTime()) throw new UsageError(`--expires "${text}" is in the past: a key must expire in the future`);
  return at;
}

export function parseKeyId(text: string): string {
  if (!UUID_SHAPE.test(text)) throw new UsageError(`"${text}" is not a key id: key ids are UUIDs (see \`sundown keys list\`)`);
  return text.toLowerCase();
}
