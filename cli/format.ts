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

export function formatRevokedKey(result: CommandResult<"keys.revoke">): string {
  return result.already_revoked
    ? `API key ${result.id} of ${orgLabel(result.organization)} was already revoked at ${result.revoked_at}.`
    : `Revoked API key ${result.id} of ${orgLabel(result.organization)}: the API refuses it from now on.`;
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

export function formatImport(result: CommandResult<"reports.import">): string {
  return `Imported ${result.imported} report${result.imported === 1 ? "" : "s"} into ${orgLabel(result.organization)}.`;
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
