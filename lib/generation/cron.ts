import { timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { deliverDue } from "@/lib/webhooks/deliver";
import { wakeDeliveryLoop } from "@/lib/webhooks/loop";
import { runGenerationPass } from "./run";

// GET /api/cron/reports: on a serverless platform, where no instance runs a generation loop, Vercel Cron calls this
// every minute (vercel.json) with `Authorization: Bearer $CRON_SECRET`; it generates what is due for up to
// BUDGET_MS. Without CRON_SECRET the route does not exist: a long-lived server needs none.

/** Room for a last pass inside a 60 s function limit. */
const BUDGET_MS = 40_000;

export async function runGenerationCron(request: Request): Promise<Response> {
  const secret = getEnv().CRON_SECRET;
  if (!secret) throw new ApiError("not_found", "No such endpoint.");
  if (!presents(request.headers.get("authorization"), `Bearer ${secret}`))
    throw new ApiError("unauthorized", "The cron route needs Authorization: Bearer <CRON_SECRET>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="sundown-cron"' },
    });
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

function presents(given: string | null, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
