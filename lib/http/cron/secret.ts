import { timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/errors";

// The cron routes (/api/cron/webhooks, /api/cron/reports): on a serverless platform Vercel Cron calls them with
// `Authorization: Bearer $CRON_SECRET`. Without CRON_SECRET they do not exist: a long-lived server runs loops instead.

/** Refuses a cron call: 404 where no CRON_SECRET is configured, 401 without the secret (compared in constant time). */
export function requireCronSecret(request: Request): void {
  const secret = getEnv().CRON_SECRET;
  if (!secret) throw new ApiError("not_found", "No such endpoint.");
  if (!presents(request.headers.get("authorization"), `Bearer ${secret}`))
    throw new ApiError("unauthorized", "The cron route needs Authorization: Bearer <CRON_SECRET>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="sundown-cron"' },
    });
}

function presents(given: string | null, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
