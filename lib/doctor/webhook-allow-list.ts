import type { Env } from "@/lib/env";
import { describeEntry, internalEntries } from "@/lib/webhook-allow-list";
import { pass, warn, type Check, type Verdict } from "./check";

// SUNDOWN_WEBHOOK_ALLOW_HOSTS is for development and tests: every organization's endpoints may use what it lists.
// In production, an entry reaching this machine or a private network lets any founder or lead of any
// organization POST to the services there and read their answers in the deliveries view: said, with the entries.

export function webhookAllowListVerdict(env: Env): Verdict | null {
  const entries = env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  if (entries.length === 0) return null;
  const listed = entries.map(describeEntry).join(", ");
  const internal = internalEntries(entries);
  if (env.NODE_ENV === "production" && internal.length > 0)
    return warn(
      `SUNDOWN_WEBHOOK_ALLOW_HOSTS lets every organization's webhooks reach ${internal.map(describeEntry).join(", ")}: ` +
        "loopback or private addresses, in production",
      "Unset SUNDOWN_WEBHOOK_ALLOW_HOSTS in production (it is for development and tests), or list only a receiver " +
        "you run for every organization, as host:port.",
    );
  return pass(`webhook endpoints may also use ${listed}`);
}

export const WEBHOOK_CHECKS: readonly Check[] = [
  { name: "webhook-allow-list", run: ({ env }) => webhookAllowListVerdict(env) },
];
