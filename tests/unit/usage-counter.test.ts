import { describe, expect, it } from "vitest";
import type { UsageCount } from "@/lib/data/key-usage";
import { UsageCounter } from "@/lib/usage/counter";
import { usageOutcome } from "@/lib/usage/record-key-request";

const KEY = "6f1c7a54-0000-4000-8000-000000000001";
const OTHER_KEY = "6f1c7a54-0000-4000-8000-000000000002";
const ORG = "0a0a0a0a-0000-4000-8000-000000000000";

/** A counter on a clock the test moves, writing into `written` (or failing while `failing` is set). */
function counterOnClock(start: string, options: { maxEntries?: number } = {}) {
  const clock = { now: Date.parse(start) };
  const state = { failing: false, written: [] as UsageCount[][], batchIds: [] as string[] };
  const counter = new UsageCounter({
    intervalMs: 60_000,
    now: () => clock.now,
    maxEntries: options.maxEntries,
    write: async (counts, batchId) => {
      state.batchIds.push(batchId);
      if (state.failing) throw new Error("database unreachable");
      state.written.push(structuredClone(counts));
    },
  });
  return { counter, clock, state };
}

describe("UsageCounter", () => {
  it("counts each outcome per key and UTC day, and splits the days at UTC midnight", async () => {
    const { counter, state } = counterOnClock("2026-11-20T12:00:00Z");
    counter.record(KEY, ORG, "successes", Date.parse("2026-11-20T23:59:59.999Z"));
    counter.record(KEY, ORG, "successes", Date.parse("2026-11-20T23:59:59.999Z"));
    counter.record(KEY, ORG, "rate_limited", Date.parse("2026-11-20T23:00:00Z"));
    counter.record(KEY, ORG, "client_errors", Date.parse("2026-11-21T00:00:00Z"));
    counter.record(OTHER_KEY, ORG, "successes", Date.parse("2026-11-21T00:00:00Z"));
    await counter.flush();
    expect(state.written).toEqual([
      [
        { apiKeyId: KEY, organizationId: ORG, day: "2026-11-20", successes: 2, client_errors: 0, rate_limited: 1 },
        { apiKeyId: KEY, organizationId: ORG, day: "2026-11-21", successes: 0, client_errors: 1, rate_limited: 0 },
        {
          apiKeyId: OTHER_KEY,
          organizationId: ORG,
          day: "2026-11-21",
          successes: 1,
          client_errors: 0,
          rate_limited: 0,
        },
      ],
    ]);
  });

  it("writes each request once: a flush hands over what it took and starts the next batch empty", async () => {
    const { counter, state } = counterOnClock("2026-11-20T12:00:00Z");
    counter.record(KEY, ORG, "successes");
    await counter.flush();
    await counter.flush();
    counter.record(KEY, ORG, "successes");
    await counter.flush();
    expect(state.written.map((batch) => batch.map((c) => c.successes))).toEqual([[1], [1]]);
  });

  it("sends requests counted during a flush to the next one", async () => {
    let release!: () => void;
    const written: UsageCount[][] = [];
    const slow = new UsageCounter({
      intervalMs: 60_000,
      write: async (counts) => {
        written.push(structuredClone(counts));
        if (written.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    slow.record(KEY, ORG, "successes");
    const first = slow.flush();
    slow.record(KEY, ORG, "successes");
    slow.record(KEY, ORG, "successes");
    release();
    await first;
    await slow.flush();
    expect(written.map((batch) => batch[0]!.successes)).toEqual([1, 2]);
    expect(slow.size).toBe(0);
  });

  it("writes a failed batch again as it was, under the same id, before the counts that came after it", async () => {
    const { counter, state } = counterOnClock("2026-11-20T12:00:00Z");
    counter.record(KEY, ORG, "successes");
    counter.record(KEY, ORG, "rate_limited");
    state.failing = true;
    await expect(counter.flush()).rejects.toThrow("database unreachable");
    // A second failure keeps the same batch and id (it may have committed: the database decides by its id).
    await expect(counter.flush()).rejects.toThrow("database unreachable");
    counter.record(KEY, ORG, "successes");
    counter.record(KEY, ORG, "client_errors");
    expect(counter.size).toBe(2);
    state.failing = false;
    await counter.flush();
    expect(state.written).toEqual([
      [{ apiKeyId: KEY, organizationId: ORG, day: "2026-11-20", successes: 1, client_errors: 0, rate_limited: 1 }],
      [{ apiKeyId: KEY, organizationId: ORG, day: "2026-11-20", successes: 1, client_errors: 1, rate_limited: 0 }],
    ]);
    const [failed, failedAgain, retried, next] = state.batchIds;
    expect([failedAgain, retried]).toEqual([failed, failed]);
    expect(next).not.toBe(failed);
    expect(counter.size).toBe(0);
  });

  it("holds at most maxEntries key-days, counting what it had to drop", async () => {
    const { counter, state } = counterOnClock("2026-11-20T12:00:00Z", { maxEntries: 1 });
    counter.record(KEY, ORG, "successes");
    counter.record(OTHER_KEY, ORG, "successes");
    counter.record(KEY, ORG, "successes");
    expect(counter.dropped).toBe(1);
    await counter.flush();
    expect(state.written).toEqual([
      [{ apiKeyId: KEY, organizationId: ORG, day: "2026-11-20", successes: 2, client_errors: 0, rate_limited: 0 }],
    ]);
  });

  it("is due for a flush once a minute has passed since the last one and something is waiting", async () => {
    const { counter, clock } = counterOnClock("2026-11-20T12:00:00Z");
    counter.record(KEY, ORG, "successes");
    clock.now += 59_999;
    expect(counter.isFlushDue()).toBe(false);
    clock.now += 1;
    expect(counter.isFlushDue()).toBe(true);
    await counter.flush();
    clock.now += 120_000;
    expect(counter.isFlushDue()).toBe(false);
  });
});

describe("usageOutcome", () => {
  it.each([
    [200, "successes"],
    [304, "successes"],
    [400, "client_errors"],
    [403, "client_errors"],
    [404, "client_errors"],
    [413, "client_errors"],
    [429, "rate_limited"],
    [500, undefined],
    [503, undefined],
  ])("counts a %i as %s", (status, outcome) => {
    expect(usageOutcome(status)).toBe(outcome);
  });
});
