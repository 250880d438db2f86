import { CommandError } from "@/lib/cli/errors";
import type { CommandResult } from "@/lib/cli/commands";
import type { Invocation } from "./args";
import type { Output } from "./output";
import { printableJson, printableStrings } from "./printable";

// `sundown updates import`: reading the file, printing the answer.

type ImportResult = CommandResult<"updates.import">;

/** `updates import --json`: the counts, the problems (null: none), the organization. */
function updatesImportJson(result: ImportResult): string {
  const { updates, absences, dryRun, problems, organization } = result;
  return printableJson({
    updates,
    absences,
    dry_run: dryRun,
    problems,
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
  });
}

function formatUpdatesImport(result: ImportResult): string {
  const { updates, absences, dryRun, organization } = result;
  const counts = [
    `updates ${updates.added} added, ${updates.replaced} replaced, ${updates.unchanged} unchanged`,
    `absences ${absences.added} added, ${absences.unchanged} unchanged`,
  ].join("; ");
  const org = `${organization.name} (${organization.slug})`;
  return dryRun
    ? `Dry run for ${org}, nothing written: the file would make ${counts}.`
    : `Imported updates into ${org}: ${counts}.`;
}

export async function runUpdatesImport(
  invocation: Extract<Invocation, { kind: "updates.import" }>,
  executeCommand: typeof import("@/lib/cli/execute").executeCommand,
): Promise<Output> {
  const { readImportSource } = await import("./import-source");
  const { updateFileFormat, formatUpdateImportProblems } = await import("@/lib/data/update-file");
  const text = await readImportSource(invocation.file);
  const format = updateFileFormat(invocation.file === "-" ? null : invocation.file, text);
  const { org, dryRun } = invocation;
  const result = await executeCommand("updates.import", { org, text, format, dryRun });
  if (invocation.json) return { stdout: updatesImportJson(result), ...(result.problems ? { exitCode: 1 } : {}) };
  if (result.problems) throw new CommandError(formatUpdateImportProblems(printableStrings(result.problems)));
  return { stdout: formatUpdatesImport(printableStrings(result)) };
}
