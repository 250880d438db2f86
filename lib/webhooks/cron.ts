import { timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { deliverDue } from "./deliver";

// GET /api/cron/webhooks: on a serverless platform, where no instance runs a delivery loop, Vercel Cron calls this
// every minute (vercel.json) with `Authorization: Bearer $CRON_SECRET`; it attempts what is due (retries, and what
// the CLI queued) for up to BUDGET_MS. Without CRON_SECRET the route does not exist: a long-lived server needs none.

/** Room for a last attempt (10 s) inside a 60 s function limit. */
const BUDGET_MS = 45_000;

export async function runDeliveryCron(request: Request): Promise<Response> {
  const secret = getEnv().CRON_SECRET;
  if (!secret) throw new ApiError("not_found", "No such endpoint.");
  if (!presents(request.headers.get("authorization"), `Bearer ${secret}`))
    throw new ApiError("unauthorized", "The cron route needs Authorization: Bearer <CRON_SECRET>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="sundown-cron"' },
    });
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

function presents(given: string | null, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
