import { deliverDue } from "@/lib/webhooks/deliver";
import { wakeDeliveryLoop } from "@/lib/webhooks/loop";
import { runGenerationPass } from "@/lib/generation/run";
import { requireCronSecret } from "./secret";

// GET /api/cron/reports: on a serverless platform, where no instance runs a generation loop, Vercel Cron calls this
// every minute (vercel.json) with `Authorization: Bearer $CRON_SECRET`; it generates what is due for up to
// BUDGET_MS. Without CRON_SECRET the route does not exist: a long-lived server needs none.

/** Room for a last pass inside a 60 s function limit. */
const BUDGET_MS = 40_000;

export async function runGenerationCron(request: Request): Promise<Response> {
  requireCronSecret(request);
  const started = Date.now();
  let days = 0;
  let changed = 0;
  for (;;) {
    const pass = await runGenerationPass();
    days += pass.attempted;
    changed += pass.changed;
    if (pass.attempted === 0 || Date.now() - started > BUDGET_MS) break;
  }
  // The reports' webhook events are in the outbox: the server's loop sends them when it runs one, else this call
  // does, before it answers (a cron call has no one waiting on it).
  if (changed > 0 && !wakeDeliveryLoop()) await deliverDue();
  return Response.json({ days, changed }, { headers: { "Cache-Control": "no-store" } });
}
