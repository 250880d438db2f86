import { randomUUID } from "node:crypto";
import { utcDay, type UsageCount, type UsageOutcome } from "@/lib/data/key-usage";

// Per-key request counts, held in memory and handed to the database in batches: a request only adds to a Map, and
// a flush (once an interval, a minute by default) writes what accumulated in one statement. The counts a flush writes are added to
// what is stored, never written over it, so several instances sum and a crash loses at most the unflushed interval.

export interface UsageCounterOptions {
  /**
   * Adds the counts to the stored ones, once per `batchId`: a batch written again under the same id (its first
   * write's reply was lost after the database had committed it) adds nothing. Throws when it cannot tell.
   */
  write: (counts: UsageCount[], batchId: string) => Promise<void>;
  /** How old the last flush must be before `isFlushDue` says so (SUNDOWN_KEY_USAGE_FLUSH_SECONDS). */
  intervalMs: number;
  now?: () => number;
  /**
   * The most key-days held between flushes. Past it, new key-days are dropped (and counted in `dropped`): memory
   * stays bounded when the database is down for long, while counts for key-days already held keep growing.
   */
  maxEntries?: number;
}

/** A batch whose write failed, kept whole under its id to be written again as it was. */
interface UnconfirmedBatch {
  id: string;
  counts: UsageCount[];
}

export class UsageCounter {
  private pending = new Map<string, UsageCount>();
  private unconfirmed: UnconfirmedBatch[] = [];
  private flushing: Promise<void> | undefined;
  private lastFlushAt: number;
  /** Requests not counted because `maxEntries` key-days were already held. */
  dropped = 0;
  private readonly write: UsageCounterOptions["write"];
  readonly intervalMs: number;
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor({ write, intervalMs, now = () => Date.now(), maxEntries = 100_000 }: UsageCounterOptions) {
    this.write = write;
    this.intervalMs = intervalMs;
    this.now = now;
    this.maxEntries = maxEntries;
    this.lastFlushAt = now();
  }

  record(apiKeyId: string, organizationId: string, outcome: UsageOutcome, at = this.now()): void {
    const day = utcDay(at);
    const entry = this.entry(apiKeyId, organizationId, day);
    if (entry) entry[outcome] += 1;
    else this.dropped += 1;
  }

  /** Whether something is waiting and the last flush is at least an interval old. */
  isFlushDue(): boolean {
    return this.size > 0 && !this.flushing && this.now() - this.lastFlushAt >= this.intervalMs;
  }

  /**
   * Writes what has accumulated. The map is swapped out first, so requests counted during the write go to the
   * next flush. A batch whose write fails is kept as it was, under its id, and written again first next time:
   * never merged into newer counts, so a write that did commit (its reply lost) is not added twice. One flush
   * at a time: a call during a flush waits for it.
   */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Key-days waiting to be written, in new counts and in batches to write again. */
  get size(): number {
    return this.pending.size + this.unconfirmed.reduce((sum, batch) => sum + batch.counts.length, 0);
  }

  private async flushOnce(): Promise<void> {
    this.lastFlushAt = this.now();
    if (this.pending.size > 0) {
      this.unconfirmed.push({ id: randomUUID(), counts: [...this.pending.values()] });
      this.pending = new Map();
    }
    // Oldest first; the first failure leaves it and every later batch for the next flush.
    while (this.unconfirmed.length > 0) {
      const batch = this.unconfirmed[0]!;
      await this.write(batch.counts, batch.id);
      this.unconfirmed.shift();
    }
  }

  private entry(apiKeyId: string, organizationId: string, day: string): UsageCount | undefined {
    const id = `${apiKeyId}/${day}`;
    let entry = this.pending.get(id);
    if (!entry) {
      if (this.size >= this.maxEntries) return undefined;
      entry = { apiKeyId, organizationId, day, successes: 0, client_errors: 0, rate_limited: 0 };
      this.pending.set(id, entry);
    }
    return entry;
  }
}
