import type { RateLimitResult } from "@/lib/http/rate-limit";

// The same sliding-window algorithm as @upstash/ratelimit's `slidingWindow` (its Lua script, in JS):
// two fixed windows, the previous one weighted by how much of it still overlaps the rolling window.
// Each check runs synchronously on the one JS thread, so concurrent requests are counted exactly.

interface Counter {
  window: number;
  current: number;
  previous: number;
}

export class MemorySlidingWindow {
  private readonly counters = new Map<string, Counter>();
  private nextSweep = 0;

  constructor(
    private readonly tokens: number,
    private readonly windowMs: number,
  ) {}

  limit(identifier: string, now = Date.now()): RateLimitResult {
    const window = Math.floor(now / this.windowMs);
    this.sweep(now, window);
    const counter = this.counterAt(identifier, window);
    const overlap = 1 - (now % this.windowMs) / this.windowMs;
    const weightedPrevious = Math.floor(overlap * counter.previous);
    const reset = (window + 1) * this.windowMs;
    if (weightedPrevious + counter.current >= this.tokens) {
      return { success: false, limit: this.tokens, remaining: 0, reset };
    }
    counter.current += 1;
    return { success: true, limit: this.tokens, remaining: Math.max(0, this.tokens - (counter.current + weightedPrevious)), reset };
  }

  private counterAt(identifier: string, window: number): Counter {
    const existing = this.counters.get(identifier);
    if (!existing) {
      const fresh = { window, current: 0, previous: 0 };
      this.counters.set(identifier, fresh);
      return fresh;
    }
    if (existing.window !== window) {
      existing.previous = existing.window === window - 1 ? existing.current : 0;
      existing.current = 0;
      existing.window = window;
    }
    return existing;
  }

  /** Forgets identifiers idle for two windows, at most once per window. */
  private sweep(now: number, window: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.windowMs;
    for (const [identifier, counter] of this.counters) {
      if (counter.window < window - 1) this.counters.delete(identifier);
    }
  }
}
