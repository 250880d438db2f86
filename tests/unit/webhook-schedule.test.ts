import { describe, expect, it } from "vitest";
import { FAILING_DISABLES_AFTER_MS, MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from "@/lib/webhooks/schedule";

const HOUR = 3600_000;
const now = new Date("2026-11-24T12:00:00Z");

describe("the retry schedule", () => {
  it("starts as Standard Webhooks recommends: 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours", () => {
    expect(RETRY_DELAYS_MS.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR]);
  });

  it("grows with every failure and spans about three days in all", () => {
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++)
      expect(RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1]!);
    const total = RETRY_DELAYS_MS.reduce((sum, d) => sum + d, 0);
    expect(total).toBeGreaterThan(70 * HOUR);
    expect(total).toBeLessThan(80 * HOUR);
    expect(FAILING_DISABLES_AFTER_MS).toBe(72 * HOUR);
  });

  it("schedules the n-th retry after the n-th failure, within a tenth either way", () => {
    expect(nextAttemptAt(1, now, () => 0.5)).toEqual(new Date(now.getTime() + 5_000));
    expect(nextAttemptAt(1, now, () => 0)).toEqual(new Date(now.getTime() + 4_500));
    expect(nextAttemptAt(1, now, () => 1)).toEqual(new Date(now.getTime() + 5_500));
    expect(nextAttemptAt(4, now, () => 0.5)).toEqual(new Date(now.getTime() + 2 * HOUR));
  });

  it("gives up after the last attempt", () => {
    expect(nextAttemptAt(MAX_ATTEMPTS - 1, now)).not.toBeNull();
    expect(nextAttemptAt(MAX_ATTEMPTS, now)).toBeNull();
  });
});
