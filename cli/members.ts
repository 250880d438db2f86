import { writeFile } from "node:fs/promises";
import { CommandError } from "@/lib/cli/errors";
import type { CommandResult } from "@/lib/cli/commands";
import type { Invocation } from "./args";
import type { Output } from "./output";
import { printableJson, printableStrings } from "./printable";

// `sundown members import|list|export`: reading the file, printing the answers.

type MembersInvocation = Extract<Invocation, { kind: "members.import" | "members.list" | "members.export" }>;

type ImportResult = CommandResult<"members.import">;

const orgLabel = (organization: { slug: string; name: string }) => `${organization.name} (${organization.slug})`;

/** `members import --json`: the counts, each person and what became of them, the problems (null: none). */
function membersImportJson(result: ImportResult): string {
  const { added, updated, unchanged, deactivated, dryRun, people, problems, organization } = result;
  return printableJson({
    added,
    updated,
    unchanged,
    deactivated,
    dry_run: dryRun,
    people,
    problems,
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
  });
}

function formatMembersImport(result: ImportResult): string {
  const { added, updated, unchanged, deactivated, dryRun, people, organization } = result;
  const counts = `${added} added, ${updated} updated, ${unchanged} unchanged, ${deactivated} deactivated`;
  const changed = people
    .filter((p) => p.change !== "unchanged")
    .map((p) => `  ${p.change.padEnd(11)} ${p.name} (${p.row})`);
  return [
    dryRun
      ? `Dry run for ${orgLabel(organization)}, nothing written: the file would make ${counts}.`
      : `Imported the roster of ${orgLabel(organization)}: ${counts}.`,
    ...changed,
  ].join("\n");
}

export async function runMembers(
  invocation: MembersInvocation,
  executeCommand: typeof import("@/lib/cli/execute").executeCommand,
): Promise<Output> {
  switch (invocation.kind) {
    case "members.import": {
      const { readImportSource } = await import("./import-source");
      const { rosterFileFormat, formatMemberImportProblems } = await import("@/lib/data/member-import");
      const text = await readImportSource(invocation.file);
      const format = rosterFileFormat(invocation.file === "-" ? null : invocation.file, text);
      const { org, dryRun, deactivateMissing } = invocation;
      const result = await executeCommand("members.import", { org, text, format, dryRun, deactivateMissing });
      if (invocation.json) return { stdout: membersImportJson(result), ...(result.problems ? { exitCode: 1 } : {}) };
      if (result.problems) throw new CommandError(formatMemberImportProblems(printableStrings(result.problems)));
      return { stdout: formatMembersImport(printableStrings(result)) };
    }
    case "members.list": {
      const result = await executeCommand("members.list", invocation.args);
      if (invocation.json) {
        const { id, slug, name } = result.organization;
        return { stdout: printableJson({ members: result.members, organization: { id, slug, name } }) };
      }
      const { members, organization } = printableStrings(result);
      const lines = members.map(
        (m) =>
          `${m.id}  ${m.role.padEnd(7)}  ${m.active ? "active  " : "inactive"}  ${m.name}${m.email ? ` <${m.email}>` : ""}${m.department ? ` · ${m.department}` : ""}${m.external ? " · external" : ""}`,
      );
      return { stdout: [`${members.length} people in ${orgLabel(organization)}:`, ...lines].join("\n") };
    }
    case "members.export": {
      const result = await executeCommand("members.export", invocation.args);
      if (!invocation.output) return { stdout: result.csv.replace(/\n$/, "") };
      await writeFile(invocation.output, result.csv);
      return {
        stderr: `Wrote ${result.count} people of ${orgLabel(result.organization)} to ${invocation.output}.`,
      };
    }
  }
}
