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
import {
  createIngestToken,
  findIngestTokenOrganization,
  listIngestTokens,
  revokeIngestToken,
  rollIngestToken,
  type CreatedIngestToken,
} from "@/lib/data/ingest-tokens";
import { listOrganizations, setOrganizationTimeZone, type OrganizationRef } from "@/lib/data/organizations";
import {
  countDuplicateReports,
  deleteReport,
  findReportOrganization,
  listDuplicateReports,
} from "@/lib/data/report-deletion";
import { findWebhookDeliveryOrganization, listWebhookAttempts } from "@/lib/data/webhook-deliveries";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpointOrganization,
  listWebhookEndpoints,
  rollWebhookSecret,
  setWebhookEndpointEnabled,
  type WebhookEndpointItem,
} from "@/lib/data/webhook-endpoints";
import { ApiError } from "@/lib/errors";
import { getEnv, signInUrl } from "@/lib/env";
import {
  createInvitation,
  findInvitationOrganization,
  invitationLink,
  listInvitations,
  revokeInvitation,
  type CreatedInvitation,
  type InvitationItem,
} from "@/lib/data/invitations";
import { countSigningInFounders, createOrganizationWithFounder } from "@/lib/data/organizations";
import { sendLinkMail } from "@/lib/mail/link-message";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { isValidDate } from "@/lib/schemas/instant";
import { wakeDeliveryLoop } from "@/lib/webhooks/loop";
import { redeliverWebhook, sendWebhookPing } from "@/lib/webhooks/pushes";
import { checkWebhookTarget } from "@/lib/webhooks/target";
import { generateReportsCommand } from "./generate-command";
import { exportMembersCommand, importMembersCommand, listMembersCommand } from "./member-commands";
import { importUpdatesCommand } from "./update-commands";
import { commandArgSchemas, type CommandArgs, type CommandName } from "./command-args";
import { CommandError, UsageError } from "./errors";
import { CLI_ACTOR, requireOrganization } from "./operator";

// The operator commands that touch the database. They run in the CLI's own process, or inside the
// running server when it owns the embedded database (lib/cli/command-server.ts): the same code either
// way. Results are plain JSON, so both paths hand the CLI the same thing to print.

// A time the database holds but no format can write (Invalid Date) is "invalid", never a failed command.
const iso = (date: Date | null) => (date === null ? null : isValidDate(date) ? date.toISOString() : "invalid");

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
 * The data layer's refusals as the operator reads them. A state that forbids the change (rolling a revoked key,
 * redelivering to a disabled endpoint) and a value it will not save (a webhook URL to a private address) say what
 * to do instead: their messages are the command's, exit code 1, whichever process ran the command. Left as they
 * are, toCommandFailure would guess from their text, and read "could not resolve x (ENOTFOUND)" as the database.
 */
function asCommandError(error: unknown): unknown {
  if (error instanceof ApiError && ["conflict", "invalid_parameter", "rate_limited"].includes(error.code)) {
    return new CommandError(error.message);
  }
  return error;
}

/**
 * Runs a change on a thing the CLI names by its bare id, scoped by the organization it belongs to; an unknown id
 * and a thing the data layer does not find say the same: `notFound`, which names the list to look in.
 */
async function changeInOrganization<T>(
  findOrganizationOf: () => Promise<OrganizationRef | null>,
  notFound: string,
  change: (organization: OrganizationRef) => Promise<T>,
): Promise<T> {
  const organization = await findOrganizationOf();
  if (!organization) throw new CommandError(notFound);
  try {
    return await change(organization);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") throw new CommandError(notFound);
    throw asCommandError(error);
  }
}

function changeKey<T>(keyId: string, change: (organization: OrganizationRef) => Promise<T>): Promise<T> {
  return changeInOrganization(
    () => findApiKeyOrganization(keyId),
    `No API key with id ${keyId}. Run \`sundown keys list --org <org>\` to see the keys.`,
    change,
  );
}

function revokeKey(args: CommandArgs<"keys.revoke">) {
  const startedAt = new Date();
  return changeKey(args.keyId, async (organization) => {
    const { revokedAt, name, hint } = await revokeApiKey(organization.id, args.keyId, CLI_ACTOR);
    return {
      id: args.keyId,
      name,
      hint,
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

/** An endpoint as `webhooks create` and `webhooks list` print it: never its secret. */
function endpointResult(endpoint: WebhookEndpointItem) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_at: iso(endpoint.disabledAt),
    disabled_reason: endpoint.disabledReason,
    failing_since: iso(endpoint.failingSince),
    previous_secret_expires_at: iso(endpoint.previousSecretExpiresAt),
    created_by: endpoint.createdBy,
    created_at: endpoint.createdAt.toISOString(),
  };
}

async function createWebhook(args: CommandArgs<"webhooks.create">) {
  const organization = await requireOrganization(args.org);
  try {
    const { secret, ...endpoint } = await createWebhookEndpoint({
      organizationId: organization.id,
      url: await checkWebhookTarget(args.url),
      events: args.events,
      actor: CLI_ACTOR,
    });
    return { ...endpointResult(endpoint), secret, organization };
  } catch (error) {
    throw asCommandError(error);
  }
}

async function listWebhooks(args: CommandArgs<"webhooks.list">) {
  const organization = await requireOrganization(args.org);
  return { organization, endpoints: (await listWebhookEndpoints(organization.id)).map(endpointResult) };
}

function changeEndpoint<T>(endpointId: string, change: (organization: OrganizationRef) => Promise<T>): Promise<T> {
  return changeInOrganization(
    () => findWebhookEndpointOrganization(endpointId),
    `No webhook endpoint with id ${endpointId}. Run \`sundown webhooks list --org <org>\` to see the endpoints.`,
    change,
  );
}

function disableWebhook(args: CommandArgs<"webhooks.disable">) {
  const startedAt = new Date();
  return changeEndpoint(args.endpointId, async (organization) => {
    const endpoint = await setWebhookEndpointEnabled(organization.id, args.endpointId, false, CLI_ACTOR);
    // Disabling a disabled endpoint changes nothing (not even its reason): it was so before this command started.
    const alreadyDisabled = endpoint.disabledAt !== null && endpoint.disabledAt < startedAt;
    return { ...endpointResult(endpoint), organization, already_disabled: alreadyDisabled };
  });
}

function enableWebhook(args: CommandArgs<"webhooks.enable">) {
  return changeEndpoint(args.endpointId, async (organization) => ({
    ...endpointResult(await setWebhookEndpointEnabled(organization.id, args.endpointId, true, CLI_ACTOR)),
    organization,
  }));
}

function deleteWebhook(args: CommandArgs<"webhooks.delete">) {
  return changeEndpoint(args.endpointId, async (organization) => {
    await deleteWebhookEndpoint(organization.id, args.endpointId, CLI_ACTOR);
    return { id: args.endpointId, organization };
  });
}

function rollWebhook(args: CommandArgs<"webhooks.roll-secret">) {
  return changeEndpoint(args.endpointId, async (organization) => {
    const { secret, previousSecretExpiresAt } = await rollWebhookSecret(organization.id, args.endpointId, {
      overlapMs: KEY_OVERLAPS[args.overlap],
      actor: CLI_ACTOR,
    });
    return {
      id: args.endpointId,
      secret,
      organization,
      previous_secret_expires_at: iso(previousSecretExpiresAt),
    };
  });
}

function pingWebhook(args: CommandArgs<"webhooks.ping">) {
  return changeEndpoint(args.endpointId, async (organization) => {
    const { deliveryId } = await sendWebhookPing(organization.id, args.endpointId);
    // Inside the server (the command socket) its delivery loop starts now; in the CLI's own process there is no
    // loop, and a running server's next poll picks the delivery up.
    wakeDeliveryLoop();
    return { endpoint_id: args.endpointId, delivery_id: deliveryId, organization };
  });
}

function listWebhookDeliveries(args: CommandArgs<"webhooks.deliveries">) {
  return changeEndpoint(args.endpointId, async (organization) => ({
    endpoint_id: args.endpointId,
    organization,
    attempts: (await listWebhookAttempts(organization.id, args.endpointId)).map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      type: a.type,
      attempt: a.attempt,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      state: a.state,
      next_attempt_at: iso(a.nextAttemptAt),
      delivery_id: a.deliveryId,
      message_id: a.messageId,
    })),
  }));
}

function redeliver(args: CommandArgs<"webhooks.redeliver">) {
  return changeInOrganization(
    () => findWebhookDeliveryOrganization(args.deliveryId),
    `No webhook delivery with id ${args.deliveryId}. Run \`sundown webhooks deliveries <endpoint-id>\` to see an endpoint's deliveries.`,
    async (organization) => {
      await redeliverWebhook(organization.id, args.deliveryId);
      wakeDeliveryLoop();
      return { delivery_id: args.deliveryId, organization };
    },
  );
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
  const result = await importReports(organization, reports, { replace: args.replace === true, actor: CLI_ACTOR });
  // Inside the server (the command socket), its delivery loop sends the added and replaced reports' events now.
  if (result.added > 0 || result.replaced > 0) wakeDeliveryLoop();
  return { organization, ...result };
}

function deleteReportById(args: CommandArgs<"reports.delete">) {
  return changeInOrganization(
    () => findReportOrganization(args.reportId),
    `No report with id ${args.reportId}. Report ids are in GET /api/v1/reports and in \`sundown reports import\`'s --json output.`,
    async (organization) => {
      const report = await deleteReport(organization.id, args.reportId, CLI_ACTOR);
      wakeDeliveryLoop();
      return { organization, report };
    },
  );
}

type DuplicatesListing =
  | { organizations: Awaited<ReturnType<typeof countDuplicateReports>> }
  | { organization: OrganizationRef; duplicates: Awaited<ReturnType<typeof listDuplicateReports>> };

async function listDuplicates(args: CommandArgs<"reports.duplicates">): Promise<DuplicatesListing> {
  if (args.org === undefined) return { organizations: await countDuplicateReports() };
  const organization = await requireOrganization(args.org);
  return { organization, duplicates: await listDuplicateReports(organization.id) };
}

async function updateOrganization(args: CommandArgs<"orgs.update">) {
  const organization = await requireOrganization(args.org);
  try {
    const { timeZone, previous } = await setOrganizationTimeZone(organization.id, args.timeZone, CLI_ACTOR);
    return { organization, time_zone: timeZone, previous_time_zone: previous };
  } catch (error) {
    throw asCommandError(error);
  }
}

/** A new ingest token as `ingest-tokens create` and `roll` print it; the secret is in it once. */
function newIngestTokenResult(token: CreatedIngestToken, organization: OrganizationRef) {
  return {
    id: token.id,
    token: token.token,
    name: token.name,
    hint: token.hint,
    organization,
    created_at: token.createdAt.toISOString(),
  };
}

async function createIngestTokenCommand(args: CommandArgs<"ingest-tokens.create">) {
  const organization = await requireOrganization(args.org);
  const token = await createIngestToken({ organizationId: organization.id, name: args.name, actor: CLI_ACTOR });
  return newIngestTokenResult(token, organization);
}

async function listIngestTokensCommand(args: CommandArgs<"ingest-tokens.list">) {
  const organization = await requireOrganization(args.org);
  return {
    organization,
    tokens: (await listIngestTokens(organization.id)).map((t) => ({
      id: t.id,
      name: t.name,
      hint: t.hint,
      status: t.status,
      created_by: t.createdBy,
      created_at: t.createdAt.toISOString(),
      last_used_at: iso(t.lastUsedAt),
      revoked_at: iso(t.revokedAt),
      rolled_to_id: t.rolledToId,
    })),
  };
}

function changeIngestToken<T>(tokenId: string, change: (organization: OrganizationRef) => Promise<T>): Promise<T> {
  return changeInOrganization(
    () => findIngestTokenOrganization(tokenId),
    `No ingest token with id ${tokenId}. Run \`sundown ingest-tokens list --org <org>\` to see the tokens.`,
    change,
  );
}

function rollIngestTokenCommand(args: CommandArgs<"ingest-tokens.roll">) {
  return changeIngestToken(args.tokenId, async (organization) => {
    const { token, previous } = await rollIngestToken(organization.id, args.tokenId, {
      overlapMs: KEY_OVERLAPS[args.overlap],
      actor: CLI_ACTOR,
    });
    return {
      ...newIngestTokenResult(token, organization),
      replaces: { id: previous.id, overlap: args.overlap, stops_at: previous.stopsAt.toISOString() },
    };
  });
}

function revokeIngestTokenCommand(args: CommandArgs<"ingest-tokens.revoke">) {
  const startedAt = new Date();
  return changeIngestToken(args.tokenId, async (organization) => {
    const { revokedAt } = await revokeIngestToken(organization.id, args.tokenId, CLI_ACTOR);
    return {
      id: args.tokenId,
      organization,
      revoked_at: revokedAt.toISOString(),
      already_revoked: revokedAt < startedAt,
    };
  });
}

/** Embedded databases are migrated whenever they are opened; this reports where they stand. */
async function migrationStatus() {
  const handle = await getDbHandle();
  const all = await readMigrations();
  const pending = await pendingMigrations(handle.sql);
  return { database: handle.kind, migrations: all.length, pending };
}

/** A link's row as `invites list` prints it: never its token. */
function invitationResult(item: InvitationItem) {
  return {
    id: item.id,
    email: item.email,
    role: item.role,
    resets_password: item.resetsPassword,
    status: item.status,
    created_by: item.createdBy,
    created_at: item.createdAt.toISOString(),
    expires_at: item.expiresAt.toISOString(),
    used_at: iso(item.usedAt),
    revoked_at: iso(item.revokedAt),
  };
}

/**
 * A new link as `orgs create` and `invites create` print it, the link in it once; e-mailed too where mail is set
 * up (best effort: `mail` says whether it left, and the link is printed either way).
 */
async function newLinkResult(invitation: CreatedInvitation, organization: OrganizationRef) {
  const link = invitationLink(new URL(signInUrl(getEnv())).origin, invitation.token);
  const outcome = await sendLinkMail({
    to: invitation.email,
    link,
    expiresAt: invitation.expiresAt,
    organizationName: organization.name,
    role: invitation.role,
    resetsPassword: invitation.resetsPassword,
  });
  return {
    ...invitationResult(invitation),
    link,
    mail: outcome.sent ? ("sent" as const) : outcome.reason,
    mail_error: outcome.sent ? null : (outcome.error ?? null),
  };
}

async function createOrganizationCommand(args: CommandArgs<"orgs.create">) {
  try {
    const { organization, member, invitation } = await createOrganizationWithFounder({ ...args, actor: CLI_ACTOR });
    const { link, expires_at, mail, mail_error, ...created } = await newLinkResult(invitation, organization);
    return {
      organization,
      member: { id: member.id, name: member.name, email: args.founderEmail, role: "founder" as const },
      invitation: created,
      link,
      expires_at,
      mail,
      mail_error,
    };
  } catch (error) {
    throw asCommandError(error);
  }
}

async function createInvitationCommand(args: CommandArgs<"invites.create">) {
  const organization = await requireOrganization(args.org);
  try {
    const invitation = await createInvitation({
      organizationId: organization.id,
      email: args.email,
      role: args.role,
      actor: CLI_ACTOR,
    });
    return { ...(await newLinkResult(invitation, organization)), organization };
  } catch (error) {
    throw asCommandError(error);
  }
}

async function listInvitationsCommand(args: CommandArgs<"invites.list">) {
  const organization = await requireOrganization(args.org);
  return { organization, invitations: (await listInvitations(organization.id)).map(invitationResult) };
}

function revokeInvitationCommand(args: CommandArgs<"invites.revoke">) {
  return changeInOrganization(
    () => findInvitationOrganization(args.invitationId),
    `No invitation with id ${args.invitationId}. Run \`sundown invites list --org <org>\` to see them.`,
    async (organization) => {
      const { item, changed } = await revokeInvitation(organization.id, args.invitationId, CLI_ACTOR);
      return { ...invitationResult(item), organization, changed };
    },
  );
}

const COMMANDS = {
  "keys.create": createKey,
  "keys.list": listKeys,
  "keys.revoke": revokeKey,
  "keys.roll": rollKey,
  "webhooks.create": createWebhook,
  "webhooks.list": listWebhooks,
  "webhooks.disable": disableWebhook,
  "webhooks.enable": enableWebhook,
  "webhooks.delete": deleteWebhook,
  "webhooks.roll-secret": rollWebhook,
  "webhooks.ping": pingWebhook,
  "webhooks.deliveries": listWebhookDeliveries,
  "webhooks.redeliver": redeliver,
  "orgs.list": listOrgs,
  "seed.demo": seedDemoData,
  "reports.import": importReportFile,
  "db.migrate": migrationStatus,
  "reports.delete": deleteReportById,
  "reports.duplicates": listDuplicates,
  "reports.generate": generateReportsCommand,
  "orgs.update": updateOrganization,
  "ingest-tokens.create": createIngestTokenCommand,
  "ingest-tokens.list": listIngestTokensCommand,
  "ingest-tokens.roll": rollIngestTokenCommand,
  "ingest-tokens.revoke": revokeIngestTokenCommand,
  "members.import": importMembersCommand,
  "members.list": listMembersCommand,
  "members.export": exportMembersCommand,
  "updates.import": importUpdatesCommand,
  "orgs.create": createOrganizationCommand,
  "invites.create": createInvitationCommand,
  "invites.list": listInvitationsCommand,
  "invites.revoke": revokeInvitationCommand,
  "orgs.founders": () => countSigningInFounders(),
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
