import { getEnv } from "@/lib/env";
import { PolicyLimiter, StoreHealth } from "@/lib/ratelimit/limiter";
import { openRemoteStore, readStoreConfig, storeId, type RemoteStore } from "@/lib/ratelimit/stores";

// Rate limits are data (a policy) plus one helper. Each policy's limiter is built once and counted
// in the store the environment names: Upstash, a plain Redis, or this process's memory.

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the oldest request that fills the window leaves it (now, when none is logged). */
  reset: number;
}

export interface RateLimiter {
  /** Counts a request when the budget has room; `success` says whether it was admitted. */
  limit(identifier: string): Promise<RateLimitResult>;
  /** The budget's state without counting: `success` says whether a request would be admitted now. */
  peek(identifier: string): Promise<RateLimitResult>;
}

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitPolicy {
  /** Namespace of the counters, e.g. "api:key" or "api:address". */
  prefix: string;
  limit: number;
  windowSeconds: number;
}

// Limiters and store connections live on globalThis: the framework may load this module more than
// once per process (one copy per route bundle), and a budget split between copies would not hold.
const registry = globalThis as typeof globalThis & {
  __sundownRateLimiters?: Map<string, PolicyLimiter>;
  __sundownRateLimitStores?: Map<string, { store: RemoteStore; health: StoreHealth }>;
};

function remoteStore(): { store: RemoteStore; health: StoreHealth } | undefined {
  const config = readStoreConfig(getEnv());
  if (config.kind === "memory") return undefined;
  const stores = (registry.__sundownRateLimitStores ??= new Map());
  const id = storeId(config);
  let entry = stores.get(id);
  if (!entry) {
    entry = { store: openRemoteStore(config), health: new StoreHealth(config.kind) };
    stores.set(id, entry);
  }
  return entry;
}

/** A limiter for one policy, built once per policy and store and reused by every request. */
export function createRateLimiter(policy: RateLimitPolicy): PolicyLimiter {
  const limiters = (registry.__sundownRateLimiters ??= new Map());
  const store = readStoreConfig(getEnv());
  const id = `${storeId(store)}|${policy.prefix}|${policy.limit}|${policy.windowSeconds}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new PolicyLimiter(policy, remoteStore());
    limiters.set(id, limiter);
  }
  return limiter;
}

/** Per API key, counted on the key's id; REST and MCP draw on this one budget. */
export function keyLimiter(): PolicyLimiter {
  return createRateLimiter({ prefix: "api:key", limit: getEnv().SUNDOWN_RATE_LIMIT, windowSeconds: RATE_LIMIT_WINDOW_SECONDS });
}

/** Per client address, counting requests whose key is missing or invalid, so keys cannot be guessed at speed. */
export function addressLimiter(): PolicyLimiter {
  return createRateLimiter({ prefix: "api:address", limit: getEnv().SUNDOWN_ADDRESS_RATE_LIMIT, windowSeconds: RATE_LIMIT_WINDOW_SECONDS });
}

/** Closes the shared-store connections and forgets every limiter (tests, shutdown). */
export async function closeRateLimitStores(): Promise<void> {
  const stores = [...(registry.__sundownRateLimitStores?.values() ?? [])];
  registry.__sundownRateLimitStores = undefined;
  registry.__sundownRateLimiters = undefined;
  await Promise.all(stores.map(({ store }) => store.close()));
}

export type RateLimitPolicyName = "per-key" | "per-address";

/** Whole seconds from now until `reset`, never negative. */
function secondsUntil(reset: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((reset - now) / 1000));
}

/** IETF draft RateLimit headers, sent on every keyed response; a refusal adds Retry-After in whole seconds. */
export function rateLimitHeaders(result: RateLimitResult, policy: RateLimitPolicyName = "per-key"): Record<string, string> {
  const seconds = secondsUntil(result.reset);
  return {
    "RateLimit-Policy": `"${policy}";q=${result.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    RateLimit: `"${policy}";r=${Math.max(0, result.remaining)};t=${seconds}`,
    ...(result.success ? {} : { "Retry-After": String(Math.max(1, seconds)) }),
  };
}
