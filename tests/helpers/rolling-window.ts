import type { Redis as IORedis } from "ioredis";
import type { WindowState } from "@/lib/ratelimit/window";

// The burst pattern that exposed the old estimate: `limit` requests at the very end of a fixed
// window, then a trickle after it. A true rolling window admits at most `limit` in any interval of
// the window's length, whichever store counts.

export const BURST = { limit: 5, windowMs: 1_000 } as const;

/** Instants of the pattern, in ms: a burst at 900–905 (one more than the limit), then one every 100 ms from 1000 to 2800. */
const BURST_INSTANTS = [900, 901, 902, 903, 904, 905, ...Array.from({ length: 19 }, (_, i) => 1_000 + i * 100)];

/** Where the pattern is admitted by a true rolling window of 5 per second. */
export const BURST_ADMITTED = [900, 901, 902, 903, 904, 1_900, 2_000, 2_100, 2_200, 2_300];

/** Replays the pattern through one store's `record`, returning each answer with its instant. */
export async function replayBurst(record: (at: number) => WindowState | Promise<WindowState>) {
  const answers: (WindowState & { at: number })[] = [];
  for (const at of BURST_INSTANTS) answers.push({ at, ...(await record(at)) });
  return answers;
}

/** The largest number of the given instants that fall in any half-open interval of `windowMs`. */
export function mostInAnyWindow(instants: number[], windowMs: number): number {
  const sorted = [...instants].sort((a, b) => a - b);
  let most = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** How many of an API key's requests its log in Redis holds (the sorted set `sundown:api:key:<id>`). */
export async function loggedKeyRequests(redis: Pick<IORedis, "zcard">, keyId: string): Promise<number> {
  return redis.zcard(`sundown:api:key:${keyId}`);
}
