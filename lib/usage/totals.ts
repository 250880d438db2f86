import { USAGE_OUTCOMES, type UsageOutcome } from "./counter";

// A key's usage as the settings page and `keys list` show it: the requests of each UTC day of a window, by outcome.

export type UsageTotals = Record<UsageOutcome, number>;
export type UsageDay = { date: string } & UsageTotals;

export interface KeyUsage {
  /** Oldest first, one entry per UTC day of the window, days without requests included as zeros. */
  days: UsageDay[];
  totals: UsageTotals;
}

/** All requests counted in these totals, whatever their outcome. */
export function totalRequests(totals: UsageTotals): number {
  return totals.successes + totals.client_errors + totals.rate_limited;
}

export function sumDays(days: UsageDay[]): UsageTotals {
  const totals: UsageTotals = { successes: 0, client_errors: 0, rate_limited: 0 };
  for (const day of days) for (const outcome of USAGE_OUTCOMES) totals[outcome] += day[outcome];
  return totals;
}
