import { getEnv } from "@/lib/env";

// Rate limiting seam of the request pipeline. The limiter here is a placeholder that counts nothing;
// the real stores (memory, Redis, Upstash) plug in behind the same interface.

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the window has room again. */
  reset: number;
}

export interface RateLimiter {
  limit(identifier: string): Promise<RateLimitResult>;
}

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitPolicy {
  /** Namespace of the counters, e.g. "api:key" or "signin:ip". */
  prefix: string;
  limit: number;
  windowSeconds: number;
}

/** A limiter for one policy; build it once per policy, not per request. */
export function createRateLimiter(policy: RateLimitPolicy): RateLimiter {
  return {
    limit: async () => ({ success: true, limit: policy.limit, remaining: policy.limit, reset: Date.now() + policy.windowSeconds * 1000 }),
  };
}

export function keyLimiter(): RateLimiter {
  return createRateLimiter({ prefix: "api:key", limit: getEnv().SUNDOWN_RATE_LIMIT, windowSeconds: RATE_LIMIT_WINDOW_SECONDS });
}

/** IETF draft RateLimit headers, sent on every keyed response. */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const seconds = Math.max(0, Math.ceil((result.reset - Date.now()) / 1000));
  return {
    "RateLimit-Policy": `"per-key";q=${result.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    RateLimit: `"per-key";r=${Math.max(0, result.remaining)};t=${seconds}`,
    ...(result.success ? {} : { "Retry-After": String(Math.max(1, seconds)) }),
  };
}
