import type { CommandResult } from "@/lib/cli/commands";
import type { MigrationResult } from "@/lib/cli/execute";
import type { OrganizationRef } from "@/lib/data/organizations";
import { totalRequests, type UsageTotals } from "@/lib/usage/totals";
import { printableJson } from "./printable";

// What the operator reads. Human output is for people; --json output is a stable shape for scripts.
// Both get values from the database with their non-printable characters escaped (./printable.ts): human
// output by main.ts before formatting, JSON here.

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  return [line(headers), ...rows.map(line)].join("\n");
}

type CreatedKeyResult = CommandResult<"keys.create">;
type RolledKeyResult = CommandResult<"keys.roll">;
type KeyListResult = CommandResult<"keys.list">;

const orgLabel = (org: OrganizationRef) => `${org.name} (${org.slug})`;
const day = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "-");

/** `--json` prints exactly this shape; the secret appears nowhere else. */
export function createdKeyJson(result: CreatedKeyResult): string {
  const { id, key, name, scopes, organization } = result;
  return printableJson({
    id,
    key,
    name,
    scopes,
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
  });
}

/** The new key's one display: the secret on stdout, the warning to copy it on stderr. */
function newKeyOutput(headline: string, result: CreatedKeyResult, extra: string[] = []) {
  return {
    stdout: [
      headline,
      "",
      `  ${result.key}`,
      "",
      `  id       ${result.id}`,
      `  scopes   ${result.scopes.join(", ")}`,
      `  expires  ${result.expires_at ?? "never"}`,
      ...extra,
    ].join("\n"),
    stderr: `Copy the key now: it is shown only this once and cannot be recovered (only its hint ${result.hint} is stored).`,
  };
}

export function formatCreatedKey(result: CreatedKeyResult): { stdout: string; stderr: string } {
  return newKeyOutput(`Created API key "${result.name}" for ${orgLabel(result.organization)}.`, result);
}

export function formatRolledKey(result: RolledKeyResult): { stdout: string; stderr: string } {
  const { id, overlap, stops_at } = result.replaces;
  const old =
    overlap === "0"
      ? `  replaces ${id}, which the API refuses from now on`
      : `  replaces ${id}, which keeps working until ${stops_at}`;
  return newKeyOutput(`Rolled API key "${result.name}" of ${orgLabel(result.organization)}.`, result, [old]);
}

export function keyListJson(result: KeyListResult): string {
  return printableJson(result.keys, 2);
}

export function organizationsJson(orgs: OrganizationRef[]): string {
  return printableJson(orgs, 2);
}

type ListedKey = KeyListResult["keys"][number];

/** A key's state as the operator reads it: when a rolled key stops, and a warning for one expiring soon. */
function statusText(key: ListedKey): string {
  if (key.status === "rolled") return `rolled, stops ${day(key.revoked_at)}`;
  if (key.expiring_in_days !== null) {
    return `${key.status}, expires in ${key.expiring_in_days} day${key.expiring_in_days === 1 ? "" : "s"}`;
  }
  return key.status;
}

// One entry per column: a new column is one line here.
const KEY_COLUMNS: [header: string, cell: (key: ListedKey) => string][] = [
  ["ID", (k) => k.id],
  ["NAME", (k) => k.name],
  ["KEY", (k) => k.hint],
  ["SCOPES", (k) => k.scopes.join(",")],
  ["STATUS", statusText],
  ["CREATED (UTC)", (k) => day(k.created_at)],
  ["LAST USED", (k) => day(k.last_used_at)],
  ["EXPIRES", (k) => (k.expires_at ? day(k.expires_at) : "never")],
  ["CREATED BY", (k) => k.created_by ?? "-"],
  ["REQUESTS (30 DAYS)", (k) => requestCount(k.usage.totals)],
];

export function formatKeyList(result: KeyListResult): string {
  if (result.keys.length === 0) {
    return `No API keys in ${orgLabel(result.organization)}. Create one with:\n  sundown keys create --org ${result.organization.slug} --name <name> --scopes reports:read,team:read`;
  }
  return table(
    KEY_COLUMNS.map(([header]) => header),
    result.keys.map((k) => KEY_COLUMNS.map(([, cell]) => cell(k))),
  );
}

/** A key's last 30 days in one cell: "12 (1 rate-limited)", the split in brackets only when there are refusals. */
function requestCount(totals: UsageTotals): string {
  const refused = [
    totals.client_errors ? `${totals.client_errors} client error${totals.client_errors === 1 ? "" : "s"}` : "",
    totals.rate_limited ? `${totals.rate_limited} rate-limited` : "",
  ].filter(Boolean);
  return `${totalRequests(totals)}${refused.length ? ` (${refused.join(", ")})` : ""}`;
}

/** Names the key by name, hint and id: two keys may share a name, never a hint and an id. */
export function formatRevokedKey(result: CommandResult<"keys.revoke">): string {
  const key = `API key "${result.name}" (${result.hint}, id ${result.id}) of ${orgLabel(result.organization)}`;
  return result.already_revoked
    ? `${key} was already revoked at ${result.revoked_at}.`
    : `Revoked ${key}: the API refuses it from now on.`;
}

type CreatedWebhookResult = CommandResult<"webhooks.create">;
type RolledWebhookSecretResult = CommandResult<"webhooks.roll-secret">;
type WebhookListResult = CommandResult<"webhooks.list">;
type WebhookDeliveriesResult = CommandResult<"webhooks.deliveries">;
type ListedEndpoint = WebhookListResult["endpoints"][number];
type ListedAttempt = WebhookDeliveriesResult["attempts"][number];

const orgJson = ({ id, slug, name }: OrganizationRef) => ({ id, slug, name });
const second = (iso: string) => iso.slice(0, 19).replace("T", " ");
// Nothing in the CLI's process sends a webhook: the server's delivery loop (or its cron route) does.
const SERVER_SENDS =
  "A running Sundown server sends it within seconds (one that starts later, then); the CLI does not.";

/** A signing secret's one display: on stdout, the warning to copy it on stderr, as for a new API key. */
function newSecretOutput(headline: string, secret: string, lines: string[]) {
  return {
    stdout: [headline, "", `  ${secret}`, "", ...lines].join("\n"),
    stderr: "Copy the signing secret now: it is shown only this once and cannot be recovered (if it is lost, roll it).",
  };
}

/** `--json` prints exactly this shape; the secret appears nowhere else. */
export function createdWebhookJson(result: CreatedWebhookResult): string {
  const { id, url, events, secret, organization } = result;
  return printableJson({ id, url, events, secret, organization: orgJson(organization) });
}

export function formatCreatedWebhook(result: CreatedWebhookResult): { stdout: string; stderr: string } {
  return newSecretOutput(`Created webhook endpoint for ${orgLabel(result.organization)}.`, result.secret, [
    `  id       ${result.id}`,
    `  url      ${result.url}`,
    `  events   ${result.events.join(", ")}`,
  ]);
}

export function rolledWebhookSecretJson(result: RolledWebhookSecretResult): string {
  const { id, secret, previous_secret_expires_at, organization } = result;
  return printableJson({ id, secret, previous_secret_expires_at, organization: orgJson(organization) });
}

export function formatRolledWebhookSecret(result: RolledWebhookSecretResult): { stdout: string; stderr: string } {
  const old = result.previous_secret_expires_at
    ? `  the old secret also signs every delivery until ${result.previous_secret_expires_at}`
    : "  the old secret signs nothing from now on";
  return newSecretOutput(
    `Rolled the signing secret of webhook endpoint ${result.id} of ${orgLabel(result.organization)}.`,
    result.secret,
    [old],
  );
}

export function webhookListJson(result: WebhookListResult): string {
  return printableJson(result.endpoints, 2);
}

/** On, or off and why; while a rolled secret's overlap lasts, when the old one stops signing. */
function endpointStatus(endpoint: ListedEndpoint): string {
  const status = endpoint.enabled
    ? "enabled"
    : `disabled${endpoint.disabled_reason ? ` (${endpoint.disabled_reason})` : ""}`;
  const overlap = endpoint.previous_secret_expires_at;
  return overlap ? `${status}, old secret until ${day(overlap)}` : status;
}

const ENDPOINT_COLUMNS: [header: string, cell: (endpoint: ListedEndpoint) => string][] = [
  ["ID", (e) => e.id],
  ["URL", (e) => e.url],
  ["EVENTS", (e) => e.events.join(",")],
  ["STATUS", endpointStatus],
  ["FAILING SINCE", (e) => day(e.failing_since)],
  ["CREATED (UTC)", (e) => day(e.created_at)],
  ["CREATED BY", (e) => e.created_by ?? "-"],
];

export function formatWebhookList(result: WebhookListResult): string {
  if (result.endpoints.length === 0) {
    return `No webhook endpoints in ${orgLabel(result.organization)}. Add one with:\n  sundown webhooks create --org ${result.organization.slug} --url https://… --events report.published`;
  }
  return table(
    ENDPOINT_COLUMNS.map(([header]) => header),
    result.endpoints.map((e) => ENDPOINT_COLUMNS.map(([, cell]) => cell(e))),
  );
}

export function formatDisabledWebhook(result: CommandResult<"webhooks.disable">): string {
  const which = `webhook endpoint ${result.id} (${result.url}) of ${orgLabel(result.organization)}`;
  if (result.already_disabled) {
    return `The ${which} was already disabled at ${result.disabled_at} (${result.disabled_reason ?? "manual"}).`;
  }
  return `Disabled ${which}: it receives nothing from now on, and what was waiting for it is given up.`;
}

export function formatEnabledWebhook(result: CommandResult<"webhooks.enable">): string {
  return `Enabled webhook endpoint ${result.id} (${result.url}) of ${orgLabel(result.organization)}: it receives events from now on.`;
}

export function formatDeletedWebhook(result: CommandResult<"webhooks.delete">): string {
  return `Deleted webhook endpoint ${result.id} of ${orgLabel(result.organization)}, and its deliveries.`;
}

export function formatWebhookPing(result: CommandResult<"webhooks.ping">): string {
  return [
    `Queued a ping to webhook endpoint ${result.endpoint_id} of ${orgLabel(result.organization)} (delivery ${result.delivery_id}).`,
    SERVER_SENDS,
    `See the attempt with: sundown webhooks deliveries ${result.endpoint_id}`,
  ].join("\n");
}

export function webhookDeliveriesJson(result: WebhookDeliveriesResult): string {
  return printableJson(result.attempts, 2);
}

// The error last: it is the one cell of any length.
const ATTEMPT_COLUMNS: [header: string, cell: (attempt: ListedAttempt) => string][] = [
  ["TIME (UTC)", (a) => second(a.attempted_at)],
  ["EVENT", (a) => a.type],
  ["ATTEMPT", (a) => String(a.attempt)],
  ["HTTP", (a) => (a.status_code === null ? "-" : String(a.status_code))],
  ["DURATION", (a) => `${a.duration_ms} ms`],
  ["STATE", (a) => (a.next_attempt_at ? `pending, next ${second(a.next_attempt_at)}` : a.state)],
  ["DELIVERY", (a) => a.delivery_id],
  ["ERROR", (a) => a.error ?? "-"],
];

export function formatWebhookDeliveries(result: WebhookDeliveriesResult): string {
  if (result.attempts.length === 0) {
    return `No delivery attempts to webhook endpoint ${result.endpoint_id} yet. Queued deliveries (events, \`sundown webhooks ping\`) show here once the server has attempted them.`;
  }
  return table(
    ATTEMPT_COLUMNS.map(([header]) => header),
    result.attempts.map((a) => ATTEMPT_COLUMNS.map(([, cell]) => cell(a))),
  );
}

export function formatRedelivery(result: CommandResult<"webhooks.redeliver">): string {
  return `Queued delivery ${result.delivery_id} of ${orgLabel(result.organization)} again, due now. ${SERVER_SENDS}`;
}

export function formatOrganizations(orgs: OrganizationRef[]): string {
  if (orgs.length === 0) return "No organizations yet. Add the demo ones with: sundown seed --demo";
  return table(
    ["SLUG", "NAME", "ID"],
    orgs.map((o) => [o.slug, o.name, o.id]),
  );
}

export function formatSeed(result: CommandResult<"seed.demo">): string {
  const lines = [];
  if (result.created.length) lines.push(`Seeded demo organizations: ${result.created.join(", ")}.`);
  if (result.skipped.length) lines.push(`Already present, left as they are: ${result.skipped.join(", ")}.`);
  return lines.join("\n");
}

type ImportResult = CommandResult<"reports.import">;

const reportCount = (n: number) => `${n} report${n === 1 ? "" : "s"}`;

export function formatImport(result: ImportResult): string {
  return `Imported ${reportCount(result.reports.length)} into ${orgLabel(result.organization)}: ${result.added} added, ${result.unchanged} unchanged, ${result.replaced} replaced.`;
}

/** `reports import --json`: the three counts, each report's id and outcome in the file's order. */
export function importJson(result: ImportResult): string {
  const { added, unchanged, replaced, reports, organization } = result;
  return printableJson({ added, unchanged, replaced, reports, organization: orgJson(organization) });
}

type DeletedReportResult = CommandResult<"reports.delete">;

export function deletedReportJson(result: DeletedReportResult): string {
  return printableJson({ ...result.report, organization: orgJson(result.organization) });
}

export function formatDeletedReport({ organization, report }: DeletedReportResult): string {
  const about = report.scope_target_id ? `${report.scope} report about ${report.scope_target_id}` : "org report";
  return [
    `Deleted report ${report.id} of ${orgLabel(organization)}: the ${about} of ${report.generated_at}.`,
    `  headline  ${report.headline ?? "-"}`,
    "REST, MCP and its markdown answer 404 for it from now on.",
  ].join("\n");
}

type DuplicatesResult = CommandResult<"reports.duplicates">;

export function duplicatesJson(result: DuplicatesResult): string {
  return printableJson("organizations" in result ? result.organizations : result.duplicates, 2);
}

export function formatDuplicates(result: DuplicatesResult): string {
  if ("organizations" in result) {
    if (result.organizations.length === 0) return "No organization holds duplicate reports.";
    return table(
      ["SLUG", "NAME", "DUPLICATES"],
      result.organizations.map((o) => [o.slug, o.name, String(o.duplicates)]),
    );
  }
  if (result.duplicates.length === 0) return `${orgLabel(result.organization)} holds no duplicate reports.`;
  return table(
    ["ID", "REPEATS", "SCOPE", "TARGET", "GENERATED AT", "CONTENT", "HEADLINE"],
    result.duplicates.map((d) => [
      d.id,
      d.duplicate_of,
      d.scope,
      d.scope_target_id ?? "-",
      d.generated_at,
      d.same_content ? "same" : "differs",
      d.headline ?? "-",
    ]),
  );
}

type UpdatedOrganizationResult = CommandResult<"orgs.update">;

export function updatedOrganizationJson(result: UpdatedOrganizationResult): string {
  const { organization, time_zone, previous_time_zone } = result;
  return printableJson({ organization: orgJson(organization), time_zone, previous_time_zone });
}

export function formatUpdatedOrganization(result: UpdatedOrganizationResult): string {
  const { organization, time_zone, previous_time_zone } = result;
  const change =
    time_zone === previous_time_zone
      ? `already counts its days in ${time_zone}`
      : `counts its days in ${time_zone} now (it was ${previous_time_zone})`;
  return `${orgLabel(organization)} ${change}.`;
}

type CreatedIngestTokenResult = CommandResult<"ingest-tokens.create">;
type RolledIngestTokenResult = CommandResult<"ingest-tokens.roll">;
type IngestTokenListResult = CommandResult<"ingest-tokens.list">;
type ListedIngestToken = IngestTokenListResult["tokens"][number];

/** `--json` prints exactly this shape; the secret appears nowhere else. */
export function createdIngestTokenJson(result: CreatedIngestTokenResult | RolledIngestTokenResult): string {
  const { id, token, name, hint, organization, created_at } = result;
  const replaces = "replaces" in result ? { replaces: result.replaces } : {};
  return printableJson({ id, token, name, hint, organization: orgJson(organization), created_at, ...replaces });
}

/** A new token's one display: the secret on stdout, the warning to copy it on stderr. */
function newIngestTokenOutput(headline: string, result: CreatedIngestTokenResult, extra: string[] = []) {
  return {
    stdout: [headline, "", `  ${result.token}`, "", `  id       ${result.id}`, ...extra].join("\n"),
    stderr: `Copy the token now: it is shown only this once and cannot be recovered (only its hint ${result.hint} is stored).`,
  };
}

export function formatCreatedIngestToken(result: CreatedIngestTokenResult): { stdout: string; stderr: string } {
  return newIngestTokenOutput(
    `Created ingest token "${result.name}" for ${orgLabel(result.organization)}. Send it as Authorization: Bearer <token> to POST /ingest/v1/reports.`,
    result,
  );
}

export function formatRolledIngestToken(result: RolledIngestTokenResult): { stdout: string; stderr: string } {
  const { id, overlap, stops_at } = result.replaces;
  const old =
    overlap === "0"
      ? `  replaces ${id}, which is refused from now on`
      : `  replaces ${id}, which keeps working until ${stops_at}`;
  return newIngestTokenOutput(`Rolled ingest token "${result.name}" of ${orgLabel(result.organization)}.`, result, [
    old,
  ]);
}

export function ingestTokenListJson(result: IngestTokenListResult): string {
  return printableJson(result.tokens, 2);
}

const INGEST_TOKEN_COLUMNS: [header: string, cell: (token: ListedIngestToken) => string][] = [
  ["ID", (t) => t.id],
  ["NAME", (t) => t.name],
  ["TOKEN", (t) => t.hint],
  ["STATUS", (t) => (t.status === "rolled" ? `rolled, stops ${day(t.revoked_at)}` : t.status)],
  ["CREATED (UTC)", (t) => day(t.created_at)],
  ["LAST USED", (t) => day(t.last_used_at)],
  ["CREATED BY", (t) => t.created_by],
];

export function formatIngestTokenList(result: IngestTokenListResult): string {
  if (result.tokens.length === 0) {
    return `No ingest tokens in ${orgLabel(result.organization)}. Create one with:\n  sundown ingest-tokens create --org ${result.organization.slug} --name <name>`;
  }
  return table(
    INGEST_TOKEN_COLUMNS.map(([header]) => header),
    result.tokens.map((t) => INGEST_TOKEN_COLUMNS.map(([, cell]) => cell(t))),
  );
}

export function formatRevokedIngestToken(result: CommandResult<"ingest-tokens.revoke">): string {
  return result.already_revoked
    ? `Ingest token ${result.id} of ${orgLabel(result.organization)} was already revoked at ${result.revoked_at}.`
    : `Revoked ingest token ${result.id} of ${orgLabel(result.organization)}: the ingest endpoint refuses it from now on.`;
}

export function formatMigration(result: MigrationResult): string {
  if (result.database === "embedded") {
    return `The embedded database is migrated automatically whenever it is opened: ${result.migrations === 1 ? "its 1 migration is" : `all ${result.migrations} migrations are`} applied${
      result.pending.length ? `, except ${result.pending.join(", ")}` : ""
    }.`;
  }
  const created = result.createdDatabase ? [`Created database "${result.createdDatabase}".`] : [];
  if (result.applied.length === 0) {
    return [
      ...created,
      `PostgreSQL is up to date (${result.migrations} migration${result.migrations === 1 ? "" : "s"} applied).`,
    ].join("\n");
  }
  return [
    ...created,
    `Applied ${result.applied.length} migration${result.applied.length === 1 ? "" : "s"} to PostgreSQL:`,
    ...result.applied.map((m) => `  ${m}`),
  ].join("\n");
}
