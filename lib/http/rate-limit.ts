import { RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import type { RateLimitResult } from "@/lib/ratelimit/limiter";
import { RATE_LIMIT_WINDOW_SECONDS } from "@/lib/ratelimit/policies";

// How a rate-limit result reads on the wire. The policies and limiters are lib/ratelimit's.

export type RateLimitPolicyName = "per-key" | "per-address" | "per-ingest-token";

/** Whole seconds from now until `reset`, never negative. */
function secondsUntil(reset: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((reset - now) / 1000));
}

/** IETF draft RateLimit headers, sent on every keyed response; a refusal adds Retry-After in whole seconds. */
export function rateLimitHeaders(
  result: RateLimitResult,
  policy: RateLimitPolicyName = "per-key",
): Record<string, string> {
  const seconds = secondsUntil(result.reset);
  return {
    [RATE_LIMIT_POLICY_HEADER]: `"${policy}";q=${result.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    [RATE_LIMIT_HEADER]: `"${policy}";r=${Math.max(0, result.remaining)};t=${seconds}`,
    ...(result.success ? {} : { [RETRY_AFTER_HEADER]: String(Math.max(1, seconds)) }),
  };
}
