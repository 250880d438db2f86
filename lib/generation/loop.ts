import { log } from "@/lib/log";
import { wakeDeliveryLoop } from "@/lib/webhooks/loop";
import { runGenerationPass } from "./run";

// Under `next start` each instance runs generation passes in the background, every POLL_MS: a cutoff is a time of
// day, so a minute's delay is the most a report waits. Instances share the work through the claims
// (./schedule.ts); serverless platforms run passes from the cron route instead (lib/http/cron/reports.ts).

const POLL_MS = 60_000;

let started = false;

export function startGenerationLoop(): void {
  if (started) return;
  started = true;
  void (async () => {
    for (;;) {
      try {
        // A full pass may have left more due (catch-up after downtime): keep going until one finds nothing.
        for (;;) {
          const pass = await runGenerationPass();
          if (pass.changed > 0) wakeDeliveryLoop();
          if (pass.attempted === 0) break;
        }
      } catch (error) {
        log("warn", "report generation pass failed", { error: (error as Error).message });
      }
      await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS).unref());
    }
  })();
}
