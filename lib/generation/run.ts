import { findOrganization } from "@/lib/data/organizations";
import { log } from "@/lib/log";
import { claimDueDays, finishDay, markLaterDaysStale, queueMissedDays, releaseDay } from "./schedule";
import { generateDay } from "./store";

// One generation pass, the same from the server's loop (./loop.ts) and from the cron route (lib/http/cron/reports.ts): queue the
// days missed, claim a bounded number of due days, generate each, and mark it done. Days are generated in order, so
// a catch-up after downtime writes the oldest first.

/** Days claimed by one pass: a day of 1,000 people takes a second or two (npm run bench). */
const PASS_SIZE = 10;

export interface PassResult {
  /** Days generated (or failed) in this pass. */
  attempted: number;
  /** Reports added, replaced or deleted: their webhook events wait in the outbox. */
  changed: number;
}

/** What a pass looks at: every organization's due days unless `organizationId` names one. */
export interface PassScope {
  limit?: number;
  organizationId?: string;
}

export async function runGenerationPass(
  now = new Date(),
  { limit = PASS_SIZE, organizationId }: PassScope = {},
): Promise<PassResult> {
  await queueMissedDays(now, organizationId);
  const claimed = await claimDueDays(now, limit, organizationId);
  let changed = 0;
  for (const claim of claimed) {
    try {
      const organization = await findOrganization(claim.organizationId);
      if (!organization) continue;
      const result = await generateDay(organization, claim.day);
      const dayChanged = result.reports.filter((r) => r.outcome !== "unchanged").length;
      await finishDay(claim);
      const count = (outcome: string) => result.reports.filter((r) => r.outcome === outcome).length;
      log("info", "generated a day's reports", {
        organization: claim.organizationId,
        day: claim.day,
        added: count("added"),
        replaced: count("replaced"),
        unchanged: count("unchanged"),
        deleted: count("deleted"),
      });
      if (dayChanged > 0 && claim.wasStale) await markLaterDaysStale(now, claim);
      changed += dayChanged;
    } catch (error) {
      log("warn", "report generation failed", {
        organization: claim.organizationId,
        day: claim.day,
        error: (error as Error).message,
      });
      await releaseDay(claim).catch(() => undefined);
    }
  }
  return { attempted: claimed.length, changed };
}
