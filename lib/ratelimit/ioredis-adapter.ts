import { Redis as IORedis } from "ioredis";
import { NOSCRIPT_MESSAGE, ShebangFreeScripts } from "./lua";
import type { ScriptRunner } from "./redis-store";

// The part of the @upstash/redis client that the sliding log calls: EVALSHA, and EVAL when Redis
// answers NOSCRIPT. Implemented on ioredis for a plain Redis at REDIS_URL.

class RedisUnavailableError extends Error {
  constructor(status: string) {
    super(`Redis connection is ${status}`);
    this.name = "RedisUnavailableError";
  }
}

export interface EvalRedis extends ScriptRunner {
  close(): Promise<void>;
}

/** Commands wait for the first connection, but fail at once while Redis is known to be gone. */
const WAITING_STATES = new Set(["wait", "connecting", "connect", "ready"]);

export function createIoredisAdapter(url: string): EvalRedis {
  const client = new IORedis(url, {
    connectTimeout: 1_000,
    // A command left unanswered this long is abandoned; the limiter has moved on long before.
    commandTimeout: 1_000,
    maxRetriesPerRequest: 0,
    // Reconnect quickly so the limit returns to Redis soon after Redis does.
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    // No auto-pipelining: one EVALSHA per request has nothing to batch with, and the batching costs a tick per command.
    enableAutoPipelining: false,
  });
  // Connection failures surface through the commands; without a listener ioredis prints each one.
  client.on("error", () => {});
  const scripts = new ShebangFreeScripts();

  function requireUsable(): void {
    if (!WAITING_STATES.has(client.status)) throw new RedisUnavailableError(client.status);
  }

  return {
    async evalsha(sha: string, keys: string[], args: string[]) {
      requireUsable();
      const loaded = scripts.translate(sha);
      if (!loaded) throw new Error(NOSCRIPT_MESSAGE);
      return client.evalsha(loaded, keys.length, ...keys, ...args);
    },
    async eval(script: string, keys: string[], args: string[]) {
      requireUsable();
      const prepared = scripts.prepare(script);
      return client.eval(prepared.script, keys.length, ...keys, ...args);
    },
    async close() {
      client.disconnect();
    },
  };
}
