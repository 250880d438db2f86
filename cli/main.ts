import { parseCommandLine, type Invocation } from "./args";
import {
  createdIngestTokenJson,
  deletedReportJson,
  duplicatesJson,
  formatCreatedIngestToken,
  formatDeletedReport,
  formatDuplicates,
  formatIngestTokenList,
  formatRevokedIngestToken,
  formatRolledIngestToken,
  formatUpdatedOrganization,
  importJson,
  ingestTokenListJson,
  updatedOrganizationJson,
} from "./format";
import {
  createdKeyJson,
  createdWebhookJson,
  formatCreatedKey,
  formatCreatedWebhook,
  formatDeletedWebhook,
  formatDisabledWebhook,
  formatEnabledWebhook,
  formatImport,
  formatKeyList,
  formatMigration,
  formatOrganizations,
  formatRedelivery,
  formatRevokedKey,
  formatRolledKey,
  formatRolledWebhookSecret,
  formatSeed,
  formatWebhookDeliveries,
  formatWebhookList,
  formatWebhookPing,
  keyListJson,
  organizationsJson,
  rolledWebhookSecretJson,
  webhookDeliveriesJson,
  webhookListJson,
} from "./format";
import { doctorReportJson, formatDoctorReport } from "./doctor-format";
import {
  createdInvitationJson,
  createdOrganizationJson,
  formatCreatedInvitation,
  formatCreatedOrganization,
  formatInvitationList,
  formatRevokedInvitation,
  invitationListJson,
} from "./format-invitations";
import { escapeNonPrintable, printableStrings } from "./printable";
import type { Output } from "./output";

// Entry point of `sundown` (bin/sundown.mjs). Errors become one message on stderr and an exit code:
// 1 the command failed, 2 the command line was wrong. No stack traces.

async function run(invocation: Exclude<Invocation, { kind: "help" | "mcp" | "doctor" }>): Promise<Output> {
  const { executeCommand, migrateDatabase } = await import("@/lib/cli/execute");
  // Results hold names from the database. Human formats get them escaped (printableStrings); JSON formats
  // escape while serializing, so scripts still read the exact values.
  switch (invocation.kind) {
    case "keys.create": {
      const result = await executeCommand("keys.create", invocation.args);
      return invocation.json ? { stdout: createdKeyJson(result) } : formatCreatedKey(printableStrings(result));
    }
    case "keys.list": {
      const result = await executeCommand("keys.list", invocation.args);
      return { stdout: invocation.json ? keyListJson(result) : formatKeyList(printableStrings(result)) };
    }
    case "keys.revoke":
      return { stdout: formatRevokedKey(printableStrings(await executeCommand("keys.revoke", invocation.args))) };
    case "keys.roll": {
      const result = await executeCommand("keys.roll", invocation.args);
      return invocation.json ? { stdout: createdKeyJson(result) } : formatRolledKey(printableStrings(result));
    }
    case "webhooks.create": {
      const result = await executeCommand("webhooks.create", invocation.args);
      return invocation.json ? { stdout: createdWebhookJson(result) } : formatCreatedWebhook(printableStrings(result));
    }
    case "webhooks.list": {
      const result = await executeCommand("webhooks.list", invocation.args);
      return { stdout: invocation.json ? webhookListJson(result) : formatWebhookList(printableStrings(result)) };
    }
    case "webhooks.disable":
      return {
        stdout: formatDisabledWebhook(printableStrings(await executeCommand("webhooks.disable", invocation.args))),
      };
    case "webhooks.enable":
      return {
        stdout: formatEnabledWebhook(printableStrings(await executeCommand("webhooks.enable", invocation.args))),
      };
    case "webhooks.delete":
      return {
        stdout: formatDeletedWebhook(printableStrings(await executeCommand("webhooks.delete", invocation.args))),
      };
    case "webhooks.roll-secret": {
      const result = await executeCommand("webhooks.roll-secret", invocation.args);
      return invocation.json
        ? { stdout: rolledWebhookSecretJson(result) }
        : formatRolledWebhookSecret(printableStrings(result));
    }
    case "webhooks.ping":
      return { stdout: formatWebhookPing(printableStrings(await executeCommand("webhooks.ping", invocation.args))) };
    case "webhooks.deliveries": {
      const result = await executeCommand("webhooks.deliveries", invocation.args);
      return {
        stdout: invocation.json ? webhookDeliveriesJson(result) : formatWebhookDeliveries(printableStrings(result)),
      };
    }
    case "webhooks.redeliver":
      return {
        stdout: formatRedelivery(printableStrings(await executeCommand("webhooks.redeliver", invocation.args))),
      };
    case "orgs.list": {
      const orgs = await executeCommand("orgs.list", {});
      return { stdout: invocation.json ? organizationsJson(orgs) : formatOrganizations(printableStrings(orgs)) };
    }
    case "seed.demo":
      return { stdout: formatSeed(printableStrings(await executeCommand("seed.demo", {}))) };
    case "reports.import": {
      const { parseImportText, validateImportReports } = await import("@/lib/data/import-reports");
      const { readImportSource } = await import("./import-source");
      // Checked here first, so a bad file is refused before the database is even opened. The command checks the
      // reports again where it runs (maybe the server): it takes them as the file has them, without their places.
      const checked = validateImportReports(parseImportText(await readImportSource(invocation.file)));
      const reports = checked.map(({ place: _place, ...report }) => report);
      const { org, replace } = invocation;
      const result = await executeCommand("reports.import", { org, reports, replace });
      return { stdout: invocation.json ? importJson(result) : formatImport(printableStrings(result)) };
    }
    case "db.migrate":
      return { stdout: formatMigration(await migrateDatabase()) };
    case "reports.generate": {
      const { runGenerate } = await import("./reports-generate");
      return runGenerate(invocation, executeCommand);
    }
    case "members.import":
    case "members.list":
    case "members.export": {
      const { runMembers } = await import("./members");
      return runMembers(invocation, executeCommand);
    }
    case "updates.import": {
      const { runUpdatesImport } = await import("./updates");
      return runUpdatesImport(invocation, executeCommand);
    }
    case "orgs.create":
    case "invites.create":
    case "invites.list":
    case "invites.revoke":
      return runIssue36(invocation, executeCommand);
    default:
      return runIssue37(invocation, executeCommand);
  }
}

type Issue36Invocation = Extract<Invocation, { kind: "orgs.create" | `invites.${string}` }>;

/** The first organization and its founder, and one-time links. */
async function runIssue36(
  invocation: Issue36Invocation,
  executeCommand: typeof import("@/lib/cli/execute").executeCommand,
): Promise<Output> {
  switch (invocation.kind) {
    case "orgs.create": {
      const result = await executeCommand("orgs.create", invocation.args);
      return invocation.json
        ? { stdout: createdOrganizationJson(result) }
        : formatCreatedOrganization(printableStrings(result));
    }
    case "invites.create": {
      const result = await executeCommand("invites.create", invocation.args);
      return invocation.json
        ? { stdout: createdInvitationJson(result) }
        : formatCreatedInvitation(printableStrings(result));
    }
    case "invites.list": {
      const result = await executeCommand("invites.list", invocation.args);
      return { stdout: invocation.json ? invitationListJson(result) : formatInvitationList(printableStrings(result)) };
    }
    case "invites.revoke":
      return {
        stdout: formatRevokedInvitation(printableStrings(await executeCommand("invites.revoke", invocation.args))),
      };
  }
}

type Issue37Invocation = Extract<
  Invocation,
  { kind: "reports.delete" | "reports.duplicates" | "orgs.update" | `ingest-tokens.${string}` }
>;

/** Correcting reports, the organization's time zone and ingest tokens. */
async function runIssue37(
  invocation: Issue37Invocation,
  executeCommand: typeof import("@/lib/cli/execute").executeCommand,
): Promise<Output> {
  switch (invocation.kind) {
    case "reports.delete": {
      const result = await executeCommand("reports.delete", invocation.args);
      return { stdout: invocation.json ? deletedReportJson(result) : formatDeletedReport(printableStrings(result)) };
    }
    case "reports.duplicates": {
      const result = await executeCommand("reports.duplicates", invocation.args);
      return { stdout: invocation.json ? duplicatesJson(result) : formatDuplicates(printableStrings(result)) };
    }
    case "orgs.update": {
      const result = await executeCommand("orgs.update", invocation.args);
      return {
        stdout: invocation.json ? updatedOrganizationJson(result) : formatUpdatedOrganization(printableStrings(result)),
      };
    }
    case "ingest-tokens.create": {
      const result = await executeCommand("ingest-tokens.create", invocation.args);
      return invocation.json
        ? { stdout: createdIngestTokenJson(result) }
        : formatCreatedIngestToken(printableStrings(result));
    }
    case "ingest-tokens.list": {
      const result = await executeCommand("ingest-tokens.list", invocation.args);
      return {
        stdout: invocation.json ? ingestTokenListJson(result) : formatIngestTokenList(printableStrings(result)),
      };
    }
    case "ingest-tokens.roll": {
      const result = await executeCommand("ingest-tokens.roll", invocation.args);
      return invocation.json
        ? { stdout: createdIngestTokenJson(result) }
        : formatRolledIngestToken(printableStrings(result));
    }
    case "ingest-tokens.revoke":
      return {
        stdout: formatRevokedIngestToken(
          printableStrings(await executeCommand("ingest-tokens.revoke", invocation.args)),
        ),
      };
  }
}

/**
 * `sundown doctor`: judges the environment exactly as given, an invalid one included (it is the first check),
 * so it runs before anything reads the environment. The report goes to stdout; a failed check exits 1.
 */
async function doctor(json: boolean, mailTo?: string): Promise<number> {
  const source = { ...process.env };
  // The report is the output: log lines from the database layer would interleave with it, and --json must parse.
  process.env.SUNDOWN_LOG_LEVEL = "silent";
  const { runDoctor } = await import("@/lib/doctor/run");
  const report = await runDoctor(source, new Date(), { mailTo });
  process.stdout.write(`${json ? doctorReportJson(report) : formatDoctorReport(printableStrings(report))}\n`);
  return report.ok ? 0 : 1;
}

async function main(argv: string[]): Promise<number | "keep-running"> {
  const { toCommandFailure } = await import("@/lib/cli/errors");
  try {
    const invocation = parseCommandLine(argv);
    if (invocation.kind === "help") {
      (invocation.exitCode === 0 ? process.stdout : process.stderr).write(`${invocation.text}\n`);
      return invocation.exitCode;
    }
    if (invocation.kind === "doctor") return await doctor(invocation.json, invocation.mailTo);
    // The CLI's output is for the operator; the JSON log lines are for servers.
    process.env.SUNDOWN_LOG_LEVEL ??= "warn";
    if (invocation.kind === "mcp") {
      // A client of the REST API: it reads its own settings, not the server's environment.
      const { runStdioServer } = await import("@/lib/mcp/stdio");
      await runStdioServer();
      return "keep-running";
    }
    const { getEnv } = await import("@/lib/env");
    getEnv();
    const output = await run(invocation);
    if (output.stdout) process.stdout.write(`${output.stdout}\n`);
    if (output.stderr) process.stderr.write(`${output.stderr}\n`);
    return output.exitCode ?? 0;
  } catch (error) {
    const { message, exitCode } = toCommandFailure(error);
    // Messages may quote what was typed or read from a file: nothing in them may act on the terminal.
    const printable = message.split("\n").map(escapeNonPrintable).join("\n");
    process.stderr.write(`${/^sundown\b/i.test(printable) ? printable : `sundown: ${printable}`}\n`);
    if (process.env.SUNDOWN_LOG_LEVEL === "debug" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return exitCode;
  }
}

const outcome = await main(process.argv.slice(2));
if (outcome !== "keep-running") {
  // Exit once the output is flushed: an idle pool or timer must never keep the CLI hanging.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(outcome)));
}
