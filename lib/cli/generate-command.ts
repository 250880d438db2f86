import { findOrganization } from "@/lib/data/organizations";
import { generateDay } from "@/lib/generation/store";
import { recordGeneratedDay } from "@/lib/generation/schedule";
import { inputExcerpt } from "@/lib/text/input-excerpt";
import { wakeDeliveryLoop } from "@/lib/webhooks/loop";
import type { CommandArgs } from "./command-args";
import { CommandError } from "./errors";

// `sundown reports generate --org <slug> --date <YYYY-MM-DD>`: one organization day's reports, generated now and in
// place, whatever its grace and whether or not a pass generated it before (lib/generation/store.ts).

export async function generateReportsCommand(args: CommandArgs<"reports.generate">) {
  const organization = await findOrganization(args.org);
  if (!organization)
    throw new CommandError(`No organization ${inputExcerpt(args.org)}. Run \`sundown orgs list\` to see them.`);
  const result = await generateDay(organization, args.date);
  await recordGeneratedDay({ organizationId: organization.id, day: args.date });
  // Inside the server (the command socket), its delivery loop sends the reports' events now.
  if (result.reports.some((r) => r.outcome !== "unchanged")) wakeDeliveryLoop();
  return { organization, ...result };
}
