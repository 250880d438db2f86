import type { KeyUsage } from "@/lib/data/key-usage";

// A key's usage as the settings page and `keys list` show it, read by lib/data/key-usage.ts: the parts by name.

export type UsageTotals = KeyUsage["totals"];
export type UsageDay = KeyUsage["days"][number];

/** All requests counted in these totals, whatever their outcome. */
export function totalRequests(totals: UsageTotals): number {
  return totals.successes + totals.client_errors + totals.rate_limited;
}
