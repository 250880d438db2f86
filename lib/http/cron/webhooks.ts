import { deliverDue } from "@/lib/webhooks/deliver";
import { requireCronSecret } from "./secret";

// GET /api/cron/webhooks: on a serverless platform, where no instance runs a delivery loop, Vercel Cron calls this
// every minute (vercel.json) with `Authorization: Bearer $CRON_SECRET`; it attempts what is due (retries, and what
// the CLI queued) for up to BUDGET_MS. Without CRON_SECRET the route does not exist: a long-lived server needs none.

/** Room for a last attempt (10 s) inside a 60 s function limit. */
const BUDGET_MS = 45_000;

export async function runDeliveryCron(request: Request): Promise<Response> {
  requireCronSecret(request);
  const started = Date.now();
  let attempted = 0;
  let delivered = 0;
  for (;;) {
    const pass = await deliverDue();
    attempted += pass.attempted;
    delivered += pass.delivered;
    if (pass.attempted === 0 || Date.now() - started > BUDGET_MS) break;
  }
  return Response.json({ attempted, delivered }, { headers: { "Cache-Control": "no-store" } });
}
