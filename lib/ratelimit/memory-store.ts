import type { WindowOperation, WindowState } from "./window";

// The sliding log (window.ts) in this process's memory: per identifier, the admission times still in
// the window, ascending. Each call runs synchronously on the one JS thread, so concurrent requests
// are counted exactly.

interface Log {
  times: number[];
  /** Index of the oldest entry still in the window; entries before it are dropped lazily. */
  head: number;
}

export class MemorySlidingLog {
  private readonly logs = new Map<string, Log>();
  private nextSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  apply(operation: WindowOperation, identifier: string, now = Date.now()): WindowState {
    this.sweep(now);
    const log = this.logs.get(identifier) ?? { times: [], head: 0 };
    dropUntil(log, now - this.windowMs);
    let count = log.times.length - log.head;
    const allowed = count < this.limit;
    if (allowed && operation === "record") {
      insertSorted(log, now);
      count += 1;
      this.logs.set(identifier, log);
    } else if (count === 0) {
      this.logs.delete(identifier);
    }
    const resetInMs = count === 0 ? 0 : log.times[log.head + Math.max(0, count - this.limit)] + this.windowMs - now;
    return { allowed, remaining: Math.max(0, this.limit - count), resetInMs };
  }

  /** Takes the request recorded at `time` back out of the window (requests of one instant are interchangeable). */
  release(identifier: string, time: number): void {
    const log = this.logs.get(identifier);
    if (!log) return;
    const index = log.times.lastIndexOf(time);
    if (index >= log.head) log.times.splice(index, 1);
  }

  /** Forgets identifiers with nothing left in the window, at most once per window. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.windowMs;
    for (const [identifier, log] of this.logs) {
      if (log.times[log.times.length - 1] <= now - this.windowMs) this.logs.delete(identifier);
    }
  }
}

/** Drops entries at or before `cutoff`, compacting the array once the dropped part dominates it. */
function dropUntil(log: Log, cutoff: number): void {
  while (log.head < log.times.length && log.times[log.head] <= cutoff) log.head += 1;
  if (log.head > 32 && log.head * 2 > log.times.length) {
    log.times = log.times.slice(log.head);
    log.head = 0;
  }
}

/** Appends `time`, or inserts it in order when the clock went back (as a sorted set would). */
function insertSorted(log: Log, time: number): void {
  const times = log.times;
  if (times.length === log.head || times[times.length - 1] <= time) {
    times.push(time);
    return;
  }
  let low = log.head;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle] <= time) low = middle + 1;
    else high = middle;
  }
  times.splice(low, 0, time);
}
