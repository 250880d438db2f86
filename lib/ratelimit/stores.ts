import { Redis as UpstashRedis } from "@upstash/redis";
import type { Env } from "@/lib/env";
import { createIoredisAdapter } from "./ioredis-adapter";
import type { ScriptRunner } from "./redis-store";

// The three places a limit can be counted, chosen by environment: Upstash (serverless, many
// instances), a plain Redis (self-hosting), or this process's memory (one instance).

export type StoreKind = "memory" | "redis" | "upstash";

export type StoreConfig =
  { kind: "memory" } | { kind: "redis"; url: string } | { kind: "upstash"; url: string; token: string };

export function readStoreConfig(env: Env): StoreConfig {
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return { kind: "upstash", url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN };
  }
  if (env.REDIS_URL) return { kind: "redis", url: env.REDIS_URL };
  return { kind: "memory" };
}

/** Identifies a store's configuration without exposing its credentials (used as a cache key). */
export function storeId(config: StoreConfig): string {
  return config.kind === "memory" ? "memory" : `${config.kind}:${config.url}`;
}

export interface RemoteStore {
  kind: Exclude<StoreKind, "memory">;
  /** Runs the sliding-log script: @upstash/redis over HTTP, or the ioredis adapter. */
  redis: ScriptRunner;
  close(): Promise<void>;
}

export function openRemoteStore(config: Exclude<StoreConfig, { kind: "memory" }>): RemoteStore {
  if (config.kind === "upstash") {
    const redis = new UpstashRedis({
      url: config.url,
      token: config.token,
      // One attempt: a slow or failing store is the limiter's cue to fall back, not to wait.
      retry: false,
      enableTelemetry: false,
      readYourWrites: false,
    });
    return { kind: "upstash", redis, close: async () => {} };
  }
  const adapter = createIoredisAdapter(config.url);
  return { kind: "redis", redis: adapter, close: () => adapter.close() };
}
