import { getEnv } from "@/lib/env";
import { PolicyLimiter, StoreHealth, type RateLimitPolicy } from "./limiter";
import { openRemoteStore, readStoreConfig, storeId, type RemoteStore } from "./stores";

// Rate limits are data (a policy) plus one helper. Each policy's limiter is built once and counted
// in the store the environment names: Upstash, a plain Redis, or this process's memory. The HTTP
// layer renders the results as headers (lib/http/rate-limit.ts); sign-in counts failures here too.

export const RATE_LIMIT_WINDOW_SECONDS = 60;

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
  const env = getEnv();
  const store = readStoreConfig(env);
  const storeTimeoutMs = env.SUNDOWN_RATE_LIMIT_STORE_TIMEOUT_MS;
  const id = `${storeId(store)}|${storeTimeoutMs ?? ""}|${policy.prefix}|${policy.limit}|${policy.windowSeconds}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new PolicyLimiter(policy, remoteStore(), { storeTimeoutMs });
    limiters.set(id, limiter);
  }
  return limiter;
}

/** Per API key, counted on the key's id; REST and MCP draw on this one budget. */
export function keyLimiter(): PolicyLimiter {
  return createRateLimiter({
    prefix: "api:key",
    limit: getEnv().SUNDOWN_RATE_LIMIT,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
  });
}

/** Per client address, counting requests whose key is missing or invalid, so keys cannot be guessed at speed. */
export function addressLimiter(): PolicyLimiter {
  return createRateLimiter({
    prefix: "api:address",
    limit: getEnv().SUNDOWN_ADDRESS_RATE_LIMIT,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
  });
}

/** Per ingest token, counted on the token's id: POST /ingest/v1 has a budget of its own, apart from the API's. */
export function ingestTokenLimiter(): PolicyLimiter {
  return createRateLimiter({
    prefix: "ingest:token",
    limit: getEnv().SUNDOWN_INGEST_RATE_LIMIT,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
  });
}

/** Closes the shared-store connections and forgets every limiter (tests, shutdown). */
export async function closeRateLimitStores(): Promise<void> {
  const stores = [...(registry.__sundownRateLimitStores?.values() ?? [])];
  registry.__sundownRateLimitStores = undefined;
  registry.__sundownRateLimiters = undefined;
  await Promise.all(stores.map(({ store }) => store.close()));
}
