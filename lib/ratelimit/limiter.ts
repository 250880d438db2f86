import { performance } from "node:perf_hooks";
import { log } from "@/lib/log";
import { MemorySlidingLog } from "./memory-store";
import { newLogMember, RedisSlidingLog } from "./redis-store";
import type { RemoteStore, StoreKind } from "./stores";
import type { WindowOperation, WindowState } from "./window";

export interface RateLimitPolicy {
  /** Namespace of the counters, e.g. "api:key" or "api:address". */
  prefix: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the oldest request that fills the window leaves it (now, when none is logged). */
  reset: number;
}

/**
 * How long a Redis call may keep this process waiting before the request is limited in memory instead, unless
 * configured (SUNDOWN_RATE_LIMIT_STORE_TIMEOUT_MS: a store in a far region needs more).
 */
const STORE_TIMEOUT_MS = 100;
/** Upper bound on that wait in wall time, for a process too busy to ever sit idle. */
const STORE_MAX_WAIT_MS = 1_000;
/** After a failure, requests skip the store this long before trying it again. */
const STORE_RETRY_MS = 1_000;
/** The degradation warning is written at most once per this interval per store. */
const DEGRADED_LOG_INTERVAL_MS = 60_000;

export type StoreResult = RateLimitResult & {
  /** Where this request was counted; "memory-fallback" while the shared store is unreachable. */
  store: StoreKind | "memory-fallback";
  /** An admitted request's entry in the store that counted it (its time in memory, its member in Redis), for release(). */
  entry?: string;
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
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
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
  return outcome ?? { ok: false, error: new StoreTimeoutError(ms) };
}

/**
 * One policy's limiter: counted in the shared store when there is one, in memory otherwise or
 * while the store is unreachable. Built once per policy and store. It keeps no answer of its own
 * (no cache of refusals): every call asks the store, so instances sharing it always agree.
 */
export class PolicyLimiter {
  private readonly memory: MemorySlidingLog;
  private readonly remote?: { store: RemoteStore; health: StoreHealth; log: RedisSlidingLog };
  private readonly timeoutMs: number;

  constructor(
    readonly policy: RateLimitPolicy,
    remote?: { store: RemoteStore; health: StoreHealth },
    { storeTimeoutMs = STORE_TIMEOUT_MS }: { storeTimeoutMs?: number } = {},
  ) {
    const windowMs = policy.windowSeconds * 1000;
    this.memory = new MemorySlidingLog(policy.limit, windowMs);
    this.timeoutMs = storeTimeoutMs;
    if (remote) {
      const log = new RedisSlidingLog(remote.store.redis, `sundown:${policy.prefix}`, policy.limit, windowMs);
      this.remote = { ...remote, log };
    }
  }

  /** Counts a request against `identifier`'s budget when there is room, and says whether it was. */
  limit(identifier: string): Promise<StoreResult> {
    return this.apply("record", identifier);
  }

  /** The budget's state for `identifier` without counting anything: `success` says whether a request would be admitted. */
  peek(identifier: string): Promise<StoreResult> {
    return this.apply("peek", identifier);
  }

  /**
   * Takes a request that limit() admitted back out of the window, in the store that counted it: a budget
   * can be reserved before an outcome is known and refunded when the outcome should not count. Best effort:
   * a store that cannot be reached keeps the entry until the window drops it. Release each result once.
   */
  async release(identifier: string, counted: StoreResult): Promise<void> {
    if (counted.entry === undefined) return;
    if (counted.store === "memory" || counted.store === "memory-fallback")
      return this.memory.release(identifier, Number(counted.entry));
    const outcome = await settleWithin(
      this.remote!.log.release(identifier, counted.entry),
      this.timeoutMs,
      Math.max(STORE_MAX_WAIT_MS, this.timeoutMs),
    );
    if (!outcome.ok) this.remote!.health.failed(outcome.error);
  }

  private async apply(operation: WindowOperation, identifier: string): Promise<StoreResult> {
    const remote = this.remote;
    if (remote?.health.usable()) {
      const member = newLogMember();
      const outcome = await settleWithin(
        remote.log.apply(operation, identifier, undefined, member),
        this.timeoutMs,
        Math.max(STORE_MAX_WAIT_MS, this.timeoutMs),
      );
      if (outcome.ok) {
        remote.health.succeeded();
        return this.result(operation, outcome.value, remote.store.kind, member);
      }
      remote.health.failed(outcome.error);
    }
    const now = Date.now();
    return this.result(
      operation,
      this.memory.apply(operation, identifier, now),
      remote ? "memory-fallback" : "memory",
      String(now),
    );
  }

  private result(
    operation: WindowOperation,
    state: WindowState,
    store: StoreResult["store"],
    entry: string,
  ): StoreResult {
    const { allowed, remaining, resetInMs } = state;
    const recorded = allowed && operation === "record";
    return {
      success: allowed,
      limit: this.policy.limit,
      remaining,
      reset: Date.now() + resetInMs,
      store,
      ...(recorded ? { entry } : {}),
    };
  }
}
