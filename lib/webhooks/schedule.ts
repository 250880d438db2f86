// When a failed delivery is tried again: the waits after the 1st, 2nd, … failed attempt, Standard Webhooks'
// recommended shape (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, …) carried on to about three days in all.
// After the last, the delivery is given up; an endpoint that has failed for FAILING_DISABLES_AFTER_MS is turned off.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;

/** Attempts in all: the first and one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export const FAILING_DISABLES_AFTER_MS = 72 * HOUR;

/** A receiver that answers nothing for this long has failed the attempt. */
export const ATTEMPT_TIMEOUT_MS = 10 * SECOND;

/**
 * When to try again after `attempts` failed attempts, or null once they are used up. A tenth either way of
 * jitter, so that an endpoint back from an outage is not hit by every waiting delivery in the same second.
 */
export function nextAttemptAt(attempts: number, now: Date, random = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (0.9 + 0.2 * random())));
}
