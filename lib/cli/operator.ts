import { findOrganization, type OrganizationRef } from "@/lib/data/organizations";
import { inputExcerpt } from "@/lib/text/input-excerpt";
import { CommandError } from "./errors";

// What every operator command shares: who acts (the operator, in the activity trail as "cli", who may change
// founders too) and the organization a command names by slug or id.

export const CLI_ACTOR = { label: "cli" } as const;

/** The organization named by `--org` (slug or id), or a command error that says how to list them. */
export async function requireOrganization(slugOrId: string): Promise<OrganizationRef> {
  const organization = await findOrganization(slugOrId);
  if (!organization)
    throw new CommandError(`No organization ${inputExcerpt(slugOrId)}. Run \`sundown orgs list\` to see them.`);
  return organization;
}
