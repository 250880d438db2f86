import { UpdateImportError, type UpdateFileFormat } from "@/lib/data/update-file";
import { importUpdates, readUpdateFile } from "@/lib/data/update-import";
import type { CommandArgs } from "./command-args";
import { CLI_ACTOR, requireOrganization } from "./operator";

// `sundown updates import`: people's updates and absences from a CSV or JSON file, through the same import as
// POST /ingest/v1/updates, acting as the operator ({ label: "cli" }).

/**
 * Imports an updates file. A file with problems is an answer too, not an error: `--json` prints them with the
 * counts (all zero), and the CLI exits 1.
 */
export async function importUpdatesCommand(args: CommandArgs<"updates.import">) {
  const organization = await requireOrganization(args.org);
  try {
    const file = readUpdateFile(args.text, args.format as UpdateFileFormat);
    const result = await importUpdates(organization.id, file, {
      actor: CLI_ACTOR,
      source: "import",
      dryRun: args.dryRun,
    });
    return { organization, ...result, problems: null };
  } catch (error) {
    if (!(error instanceof UpdateImportError)) throw error;
    return {
      organization,
      updates: { added: 0, unchanged: 0, replaced: 0 },
      absences: { added: 0, unchanged: 0 },
      dryRun: args.dryRun,
      problems: error.problems,
    };
  }
}
