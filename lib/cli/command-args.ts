import { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import { inputExcerpt } from "@/lib/text/input-excerpt";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { DEFAULT_KEY_EXPIRY, keyExpirySchema } from "@/lib/schemas/key-expiry";
import { ingestTokenNameSchema, keyNameSchema } from "@/lib/schemas/key-name";
import { emailAddressSchema } from "@/lib/schemas/email-address";
import { organizationSlugSchema } from "@/lib/schemas/organization-slug";
import { memberRoleSchema } from "@/lib/schemas/team";
import { organizationNameSchema, personNameSchema } from "@/lib/schemas/visible-name";
import { keyOverlapSchema, type KeyOverlap } from "@/lib/schemas/key-overlap";
import { keyScopesSchema } from "@/lib/schemas/key-scopes";
import { timeZoneSchema } from "@/lib/schemas/time-zone";
import { WEBHOOK_EVENT_TYPES, webhookEventsSchema, type WebhookEventType } from "@/lib/schemas/webhook-events";
import { UsageError } from "./errors";

// Arguments of the commands that run against the database. The CLI builds them from flags; the
// server's command channel parses them again, since they cross a process boundary.

const org = z.string().min(1);
const uuid = z.string().regex(UUID_SHAPE);
/** A day as updates name it (lib/data/updates.ts daySchema): YYYY-MM-DD, a real date. */
const day = z.iso.date({ error: "must be a date as YYYY-MM-DD" });

export const commandArgSchemas = {
  "keys.create": z.strictObject({
    org,
    name: keyNameSchema,
    scopes: keyScopesSchema,
    // An instant the CLI already resolved from --expires (parseExpiry), not the operator's text.
    expiresAt: z.iso.datetime().nullable(),
  }),
  "keys.list": z.strictObject({ org }),
  "keys.revoke": z.strictObject({ keyId: uuid }),
  "keys.roll": z.strictObject({ keyId: uuid, overlap: keyOverlapSchema }),
  // The URL as the operator typed it: the data layer checks it (https, a public address) when it saves it, with
  // the message the settings form shows, since the address rule needs a DNS lookup the CLI should not repeat.
  "webhooks.create": z.strictObject({ org, url: z.string().min(1), events: webhookEventsSchema }),
  "webhooks.list": z.strictObject({ org }),
  "webhooks.disable": z.strictObject({ endpointId: uuid }),
  "webhooks.enable": z.strictObject({ endpointId: uuid }),
  "webhooks.delete": z.strictObject({ endpointId: uuid }),
  "webhooks.roll-secret": z.strictObject({ endpointId: uuid, overlap: keyOverlapSchema }),
  "webhooks.ping": z.strictObject({ endpointId: uuid }),
  "webhooks.deliveries": z.strictObject({ endpointId: uuid }),
  "webhooks.redeliver": z.strictObject({ deliveryId: uuid }),
  "orgs.list": z.strictObject({}),
  "seed.demo": z.strictObject({}),
  "reports.import": z.strictObject({ org, reports: z.array(z.unknown()), replace: z.boolean().optional() }),
  "db.migrate": z.strictObject({}),
  "reports.delete": z.strictObject({ reportId: uuid }),
  "reports.duplicates": z.strictObject({ org: org.optional() }),
  "reports.generate": z.strictObject({ org, date: day }),
  "orgs.update": z.strictObject({ org, timeZone: timeZoneSchema }),
  "ingest-tokens.create": z.strictObject({ org, name: ingestTokenNameSchema }),
  "ingest-tokens.list": z.strictObject({ org }),
  "ingest-tokens.roll": z.strictObject({ tokenId: uuid, overlap: keyOverlapSchema }),
  "ingest-tokens.revoke": z.strictObject({ tokenId: uuid }),
  // The file's text as read by the CLI: the import checks it where it runs (maybe the server).
  "members.import": z.strictObject({
    org,
    text: z.string(),
    format: z.enum(["csv", "json"]),
    dryRun: z.boolean(),
    deactivateMissing: z.boolean(),
  }),
  "members.list": z.strictObject({ org }),
  // The file's text as read by the CLI, as members.import takes it.
  "updates.import": z.strictObject({ org, text: z.string(), format: z.enum(["csv", "json"]), dryRun: z.boolean() }),
  "members.export": z.strictObject({ org }),
  "orgs.create": z.strictObject({
    slug: organizationSlugSchema,
    name: organizationNameSchema,
    founderEmail: emailAddressSchema,
    founderName: personNameSchema,
  }),
  "invites.create": z.strictObject({ org, email: emailAddressSchema, role: memberRoleSchema }),
  "invites.list": z.strictObject({ org }),
  "invites.revoke": z.strictObject({ invitationId: uuid }),
  // For `sundown doctor` only, asked of a running server that holds the embedded database.
  "orgs.founders": z.strictObject({}),
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

/** An id the operator copied from a list: a UUID, lower-cased, or a usage error naming the list that shows them. */
function parseId(text: string, what: string, listCommand: string): string {
  if (!UUID_SHAPE.test(text))
    throw new UsageError(
      `${inputExcerpt(text)} is not ${/^[aeiou]/.test(what) ? "an" : "a"} ${what} id: ${what} ids are UUIDs (see \`${listCommand}\`)`,
    );
  return text.toLowerCase();
}

export function parseKeyId(text: string): string {
  return parseId(text, "key", "sundown keys list");
}

export function parseEndpointId(text: string): string {
  return parseId(text, "webhook endpoint", "sundown webhooks list");
}

export function parseDeliveryId(text: string): string {
  return parseId(text, "delivery", "sundown webhooks deliveries <endpoint-id>");
}

/**
 * `--events report.published,…`: the events rule every surface shares (each known, at least one, repeats ignored).
 * An unknown name is named here, with the valid ones, before the shared rule runs: its message only lists them.
 */
export function parseEvents(text: string): WebhookEventType[] {
  const given = text
    .split(",")
    .map((event) => event.trim())
    .filter(Boolean);
  const unknown = given.find((event) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event));
  if (unknown !== undefined) {
    const shown = JSON.stringify(unknown.length > 40 ? `${unknown.slice(0, 40)}…` : unknown);
    throw new UsageError(`--events: Unknown event ${shown}; valid events are ${WEBHOOK_EVENT_TYPES.join(", ")}.`);
  }
  return parseFlag("events", webhookEventsSchema, given);
}

export function parseReportId(text: string): string {
  return parseId(text, "report", "GET /api/v1/reports");
}

/** `--date 2026-11-24`: one day, in the organization's time zone. */
export function parseDay(text: string): string {
  return parseFlag("date", day, text);
}

export function parseIngestTokenId(text: string): string {
  return parseId(text, "ingest token", "sundown ingest-tokens list");
}

export function parseIngestTokenName(text: string): string {
  return parseFlag("name", ingestTokenNameSchema, text);
}

export function parseInvitationId(text: string): string {
  return parseId(text, "invitation", "sundown invites list");
}

/** `orgs create`'s flags, each by the rule /setup uses too. */
export function parseNewOrganization(values: {
  slug: string;
  name: string;
  founderEmail: string;
  founderName?: string;
}): CommandArgs<"orgs.create"> {
  const founderEmail = parseFlag("founder-email", emailAddressSchema, values.founderEmail);
  return {
    slug: parseFlag("slug", organizationSlugSchema, values.slug),
    name: parseFlag("name", organizationNameSchema, values.name),
    founderEmail,
    // Left out, the roster shows the address's local part until the founder is renamed in Settings → Team.
    founderName: parseFlag("founder-name", personNameSchema, values.founderName ?? founderEmail.split("@")[0]),
  };
}

export function parseInvitation(values: { org: string; email: string; role: string }): CommandArgs<"invites.create"> {
  return {
    org: values.org,
    email: parseFlag("email", emailAddressSchema, values.email),
    role: parseFlag(
      "role",
      z.enum(["founder", "lead", "member"], { error: "Use founder, lead or member." }),
      values.role,
    ),
  };
}

/** `--time-zone America/Los_Angeles`: the rule Settings uses too; the zone is written under its canonical name. */
export function parseTimeZone(text: string): string {
  return parseFlag("time-zone", timeZoneSchema, text);
}
