import { performance } from "node:perf_hooks";
import { Ratelimit } from "@upstash/ratelimit";
import type { RateLimiter, RateLimitPolicy, RateLimitResult } from "@/lib/http/rate-limit";
import { log } from "@/lib/log";
import { MemorySlidingWindow } from "./memory-store";
import type { RemoteStore, StoreKind } from "./stores";

/** How long a Redis call may keep this process waiting before the request is limited in memory instead. */
export const STORE_TIMEOUT_MS = 100;
/** Upper bound on that wait in wall time, for a process too busy to ever sit idle. */
export const STORE_MAX_WAIT_MS = 1_000;
/** After a failure, requests skip the store this long before trying it again. */
export const STORE_RETRY_MS = 1_000;
/** The degradation warning is written at most once per this interval per store. */
export const DEGRADED_LOG_INTERVAL_MS = 60_000;

export type StoreResult = RateLimitResult & {
  /** Where this request was counted; "memory-fallback" while the shared store is unreachable. */
  store: StoreKind | "memory-fallback";
};

/** Health of one remote store, shared by every policy that counts in it. */
export class StoreHealth {
  private skipUntil = 0;
  private lastWarned = -Infinity;
  private degraded = false;

  constructor(private readonly kind: StoreKind) {}

  usable(now = Date.now()): boolean {
    return now >= this.skipUntil;
  }

  failed(error: unknown, now = Date.now()): void {
    this.skipUntil = now + STORE_RETRY_MS;
    this.degraded = true;
    if (now - this.lastWarned < DEGRADED_LOG_INTERVAL_MS) return;
    this.lastWarned = now;
    log("warn", "rate-limit store unreachable: limiting per instance in memory until it is back", {
      store: this.kind,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  succeeded(): void {
    if (!this.degraded) return;
    this.degraded = false;
    log("info", "rate-limit store reachable again", { store: this.kind });
  }
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

class StoreTimeoutError extends Error {
  constructor() {
    super(`no answer within ${STORE_TIMEOUT_MS} ms`);
    this.name = "StoreTimeoutError";
  }
}

/**
 * Waits for `work` until the process has spent `ms` idle without an answer. Idle time (the event loop
 * waiting for I/O) rather than wall time: when the process itself is busy, say with a burst of
 * requests, an answer may sit unread in a socket buffer, and that is no reason to call the store slow
 * and count a request twice. A dead or hung store shows up as idle waiting and is given up after `ms`;
 * `maxMs` of wall time bounds the wait whatever the load.
 */
async function settleWithin<T>(work: Promise<T>, ms: number, maxMs: number): Promise<Outcome<T>> {
  let outcome: Outcome<T> | undefined;
  const tracked = work.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  const started = performance.now();
  const utilization = performance.eventLoopUtilization();
  for (;;) {
    const idle = performance.eventLoopUtilization(utilization).idle;
    const left = Math.min(ms - idle, maxMs - (performance.now() - started));
    if (outcome || left <= 0) break;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([tracked, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
  }
  return outcome ?? { ok: false, error: new StoreTimeoutError() };
}

/**
 * One policy's limiter: counted in the shared store when there is one, in memory otherwise or
 * while the store is unreachable. Built once per policy and store.
 */
export class PolicyLimiter implements RateLimiter {
  private readonly memory: MemorySlidingWindow;
  private readonly remote?: { store: RemoteStore; health: StoreHealth; ratelimit: Ratelimit };
  /** Identifiers this instance has seen refused, with the time the refusal ends. */
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    readonly policy: RateLimitPolicy,
    remote?: { store: RemoteStore; health: StoreHealth },
  ) {
    this.memory = new MemorySlidingWindow(policy.limit, policy.windowSeconds * 1000);
    if (remote) {
      const ratelimit = new Ratelimit({
        redis: remote.store.redis,
        limiter: Ratelimit.slidingWindow(policy.limit, `${policy.windowSeconds} s`),
        prefix: `sundown:${policy.prefix}`,
        // settleWithin bounds the wait instead: the library's own timer would answer "allowed,
        // reason timeout" even when the reply is already waiting behind a busy event loop.
        timeout: 0,
        analytics: false,
        enableTelemetry: false,
      });
      this.remote = { ...remote, ratelimit };
    }
  }

  async limit(identifier: string): Promise<StoreResult> {
    const result = await this.count(identifier);
    if (!result.success) this.rememberRefusal(identifier, result.reset);
    return result;
  }

  /** When this instance last saw `identifier` refused and the refusal has not ended: its end. */
  refusedUntilTime(identifier: string, now = Date.now()): number | undefined {
    const until = this.refusedUntil.get(identifier);
    if (until === undefined) return undefined;
    if (until > now) return until;
    this.refusedUntil.delete(identifier);
    return undefined;
  }

  private rememberRefusal(identifier: string, until: number): void {
    this.refusedUntil.set(identifier, until);
    if (this.refusedUntil.size <= 10_000) return;
    const now = Date.now();
    for (const [id, end] of this.refusedUntil) if (end <= now) this.refusedUntil.delete(id);
  }

  private async count(identifier: string): Promise<StoreResult> {
    const remote = this.remote;
    if (!remote) return { ...this.memory.limit(identifier), store: "memory" };
    if (remote.health.usable()) {
      const outcome = await settleWithin(remote.ratelimit.limit(identifier), STORE_TIMEOUT_MS, STORE_MAX_WAIT_MS);
      if (outcome.ok) {
        remote.health.succeeded();
        const { success, limit, remaining, reset } = outcome.value;
        return { success, limit, remaining, reset, store: remote.store.kind };
      }
      remote.health.failed(outcome.error);
    }
    return { ...this.memory.limit(identifier), store: "memory-fallback" };
  }
}
