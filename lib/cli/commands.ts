import { getDb, getDbHandle, pendingMigrations } from "@/lib/db";
import { readMigrations } from "@/lib/db/migrate";
import { seedDemo } from "@/lib/demo/seed";
import { DEMO_ORGANIZATIONS } from "@/lib/demo/data";
import {
  createApiKey,
  findApiKeyOrganization,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
  type CreatedApiKey,
} from "@/lib/data/api-keys";
import { importReports, validateImportReports } from "@/lib/data/import-reports";
import { listKeyUsage } from "@/lib/data/key-usage";
import { findOrganization, listOrganizations, type OrganizationRef } from "@/lib/data/organizations";
import { ApiError } from "@/lib/errors";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { isValidDate } from "@/lib/schemas/instant";
import { commandArgSchemas, type CommandArgs, type CommandName } from "./command-args";
import { CommandError, UsageError } from "./errors";

// The operator commands that touch the database. They run in the CLI's own process, or inside the
// running server when it owns the embedded database (lib/cli/command-server.ts): the same code either
// way. Results are plain JSON, so both paths hand the CLI the same thing to print.

const CLI_ACTOR = { label: "cli" } as const;

// A time the database holds but no format can write (Invalid Date) is "invalid", never a failed command.
const iso = (date: Date | null) => (date === null ? null : isValidDate(date) ? date.toISOString() : "invalid");

async function requireOrganization(slugOrId: string): Promise<OrganizationRef> {
  const organization = await findOrganization(slugOrId);
  if (!organization) throw new CommandError(`No organization "${slugOrId}". Run \`sundown orgs list\` to see them.`);
  return organization;
}

/** A new key as `keys create` and `keys roll` print it; the secret is in it once. */
function newKeyResult(key: CreatedApiKey, organization: OrganizationRef) {
  return {
    id: key.id,
    key: key.key,
    name: key.name,
    scopes: key.scopes,
    organization,
    hint: key.hint,
    created_at: key.createdAt.toISOString(),
    expires_at: iso(key.expiresAt),
  };
}

async function createKey(args: CommandArgs<"keys.create">) {
  const organization = await requireOrganization(args.org);
  const key = await createApiKey({
    organizationId: organization.id,
    name: args.name,
    scopes: args.scopes,
    expiresAt: args.expiresAt ? new Date(args.expiresAt) : null,
    actor: CLI_ACTOR,
  });
  return newKeyResult(key, organization);
}

async function listKeys(args: CommandArgs<"keys.list">) {
  const organization = await requireOrganization(args.org);
  const [keys, usageOf] = await Promise.all([listApiKeys(organization.id), listKeyUsage(organization.id)]);
  return {
    organization,
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      hint: k.hint,
      scopes: k.scopes,
      status: k.status,
      created_by: k.createdBy,
      created_at: k.createdAt.toISOString(),
      last_used_at: iso(k.lastUsedAt),
      expires_at: iso(k.expiresAt),
      expiring_in_days: k.expiresWithinDays,
      revoked_at: iso(k.revokedAt),
      rolled_to_id: k.rolledTo?.id ?? null,
      usage: usageOf(k.id),
    })),
  };
}

/**
 * Runs a change on a key found by its bare id, scoped by the organization it belongs to; an unknown id
 * and a key the data layer does not find say the same.
 */
async function changeKey<T>(keyId: string, change: (organization: OrganizationRef) => Promise<T>): Promise<T> {
  const notFound = new CommandError(
    `No API key with id ${keyId}. Run \`sundown keys list --org <org>\` to see the keys.`,
  );
  const organization = await findApiKeyOrganization(keyId);
  if (!organization) throw notFound;
  try {
    return await change(organization);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") throw notFound;
    // A key whose state forbids the change (rolling a revoked key): the message says what to do instead.
    if (error instanceof ApiError && error.code === "conflict") throw new CommandError(error.message);
    throw error;
  }
}

function revokeKey(args: CommandArgs<"keys.revoke">) {
  const startedAt = new Date();
  return changeKey(args.keyId, async (organization) => {
    const { revokedAt } = await revokeApiKey(organization.id, args.keyId, CLI_ACTOR);
    return {
      id: args.keyId,
      organization,
      revoked_at: revokedAt.toISOString(),
      already_revoked: revokedAt < startedAt,
    };
  });
}

function rollKey(args: CommandArgs<"keys.roll">) {
  return changeKey(args.keyId, async (organization) => {
    const { key, previous } = await rollApiKey(organization.id, args.keyId, {
      overlapMs: KEY_OVERLAPS[args.overlap],
      actor: CLI_ACTOR,
    });
    return {
      ...newKeyResult(key, organization),
      replaces: { id: previous.id, overlap: args.overlap, stops_at: previous.stopsAt.toISOString() },
    };
  });
}

async function listOrgs() {
  return listOrganizations();
}

async function seedDemoData() {
  const created = await seedDemo(await getDb());
  return { created, skipped: DEMO_ORGANIZATIONS.map((o) => o.slug).filter((slug) => !created.includes(slug)) };
}

async function importReportFile(args: CommandArgs<"reports.import">) {
  const reports = validateImportReports(args.reports);
  const organization = await requireOrganization(args.org);
  const { imported } = await importReports(organization, reports);
  return { organization, imported };
}

/** Embedded databases are migrated whenever they are opened; this reports where they stand. */
async function migrationStatus() {
  const handle = await getDbHandle();
  const all = await readMigrations();
  const pending = await pendingMigrations(handle.sql);
  return { database: handle.kind, migrations: all.length, pending };
}

const COMMANDS = {
  "keys.create": createKey,
  "keys.list": listKeys,
  "keys.revoke": revokeKey,
  "keys.roll": rollKey,
  "orgs.list": listOrgs,
  "seed.demo": seedDemoData,
  "reports.import": importReportFile,
  "db.migrate": migrationStatus,
} satisfies { [N in CommandName]: (args: CommandArgs<N>) => Promise<unknown> };

/** What a command returns: plain JSON, the same whether it ran here or in the server. */
export type CommandResult<N extends CommandName> = Awaited<ReturnType<(typeof COMMANDS)[N]>>;

/** Runs one command against this process's database, after checking its arguments. */
export async function runCommand<N extends CommandName>(name: N, args: unknown): Promise<CommandResult<N>> {
  const parsed = commandArgSchemas[name].safeParse(args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
    throw new UsageError(`invalid arguments for ${name}: ${problems}`);
  }
  const run = COMMANDS[name] as (args: unknown) => Promise<CommandResult<N>>;
  return run(parsed.data);
}
