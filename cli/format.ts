import type { CommandResult } from "@/lib/cli/commands";
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

export function formatCreatedKey(result: CreatedKeyResult): { stdout: string; stderr: string } {
  return {
    stdout: [
      `Created API key "${result.name}" for ${orgLabel(result.organization)}.`,
      "",
      `  ${result.key}`,
      "",
      `  id       ${result.id}`,
      `  scopes   ${result.scopes.join(", ")}`,
      `  expires  ${result.expires_at ?? "never"}`,
    ].join("\n"),
    stderr: `Copy the key now: it is shown only this once and cannot be recovered (only its hint ${result.hint} is stored).`,
  };
}

export function keyListJson(result: KeyListResult): string {
  return printableJson(result.keys, 2);
}

export function organizationsJson(orgs: OrganizationRef[]): string {
  return printableJson(orgs, 2);
}

export function formatKeyList(result: KeyListResult): string {
  if (result.keys.length === 0) {
    return `No API keys in ${orgLabel(result.organization)}. Create one with:\n  sundown keys create --org ${result.organization.slug} --name <name> --scopes reports:read,team:read`;
  }
  return table(
    [
      "ID",
      "NAME",
      "KEY",
      "SCOPES",
      "STATUS",
      "CREATED (UTC)",
      "LAST USED",
      "EXPIRES",
      "CREATED BY",
      "REQUESTS (30 DAYS)",
    ],
    result.keys.map((k) => [
      k.id,
      k.name,
      k.hint,
      k.scopes.join(","),
      k.status,
      day(k.created_at),
      day(k.last_used_at),
      k.expires_at ? day(k.expires_at) : "never",
      k.created_by ?? "-",
      requestCount(k.usage.totals),
    ]),
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

export function formatMigration(result: CommandResult<"db.migrate"> & { applied: string[] }): string {
  if (result.database === "embedded") {
    return `The embedded database is migrated automatically whenever it is opened: ${result.migrations === 1 ? "its 1 migration is" : `all ${result.migrations} migrations are`} applied${
      result.pending.length ? `, except ${result.pending.join(", ")}` : ""
    }.`;
  }
  if (result.applied.length === 0)
    return `PostgreSQL is up to date (${result.migrations} migration${result.migrations === 1 ? "" : "s"} applied).`;
  return [
    `Applied ${result.applied.length} migration${result.applied.length === 1 ? "" : "s"} to PostgreSQL:`,
    ...result.applied.map((m) => `  ${m}`),
  ].join("\n");
}
