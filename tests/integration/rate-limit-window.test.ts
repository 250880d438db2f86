import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeRateLimitStores } from "@/lib/ratelimit/policies";
import { createIoredisAdapter, type EvalRedis } from "@/lib/ratelimit/ioredis-adapter";
import { PolicyLimiter, StoreHealth } from "@/lib/ratelimit/limiter";
import { MemorySlidingLog } from "@/lib/ratelimit/memory-store";
import { RedisSlidingLog } from "@/lib/ratelimit/redis-store";
import type { RemoteStore } from "@/lib/ratelimit/stores";
import { startRedisServer, type ThrowawayRedis } from "../helpers/redis-server";
import { BURST, BURST_ADMITTED, mostInAnyWindow, replayBurst } from "../helpers/rolling-window";

// The rolling window on a real Redis 7 (a throwaway server) against the memory store: the same
// decisions for the same calls, the same answer from two instances, whatever their clocks say.

let redis: ThrowawayRedis;
const connections: EvalRedis[] = [];
let run = 0;

function connect(url = redis.url): EvalRedis {
  const adapter = createIoredisAdapter(url);
  connections.push(adapter);
  return adapter;
}

/** A limiter of its own store connection on the shared Redis, as a second server process would have. */
function instance(policy: { prefix: string; limit: number; windowSeconds: number }): PolicyLimiter {
  const store: RemoteStore = { kind: "redis", redis: connect(), close: async () => {} };
  return new PolicyLimiter(policy, { store, health: new StoreHealth("redis") });
}

const fresh = (name: string) => `${name}-${process.pid}-${(run += 1)}`;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(connections.map((c) => c.close()));
  await closeRateLimitStores();
  await redis.stop();
});

describe("one algorithm on every store", () => {
  it("takes a released request back out of the window, in Redis and in memory alike", async () => {
    const policy = { prefix: "test:release", limit: 2, windowSeconds: 60 };
    for (const limiter of [instance(policy), new PolicyLimiter(policy)]) {
      const identifier = fresh("release");
      const first = await limiter.limit(identifier);
      const second = await limiter.limit(identifier);
      expect([first.success, second.success, (await limiter.limit(identifier)).success]).toEqual([true, true, false]);
      await limiter.release(identifier, second);
      expect(await limiter.peek(identifier)).toMatchObject({ success: true, remaining: 1 });
      // A refused request holds no entry: releasing it takes nothing back.
      await limiter.release(identifier, { ...second, success: false, entry: undefined });
      expect(await limiter.peek(identifier)).toMatchObject({ success: true, remaining: 1 });
    }
  });

  it("Redis and memory give the same answers to a burst at a window's end and a trickle after it", async () => {
    const inRedis = new RedisSlidingLog(connect(), "test:window", BURST.limit, BURST.windowMs);
    const inMemory = new MemorySlidingLog(BURST.limit, BURST.windowMs);
    const identifier = fresh("burst");
    const redisAnswers = await replayBurst((at) => inRedis.apply("record", identifier, at));
    const memoryAnswers = await replayBurst((at) => inMemory.apply("record", identifier, at));
    expect(redisAnswers).toEqual(memoryAnswers);
    expect(redisAnswers.filter((a) => a.allowed).map((a) => a.at)).toEqual(BURST_ADMITTED);
  });

  it("holds on Redis's own clock: at most the limit in any rolling window, in real time", async () => {
    // 5 per 400 ms, a burst just before a 400 ms boundary and then a request every 40 ms for 1.2 s.
    const limiter = instance({ prefix: "test:realtime", limit: 5, windowSeconds: 0.4 });
    const identifier = fresh("realtime");
    await new Promise((r) => setTimeout(r, 400 - (Date.now() % 400) - 30));
    const admitted: number[] = [];
    const record = async () => {
      const result = await limiter.limit(identifier);
      expect(result.store).toBe("redis");
      if (result.success) admitted.push(Date.now());
    };
    await Promise.all(Array.from({ length: 8 }, record));
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 40));
      await record();
    }
    // Timestamps are taken after the answer, so allow the answer's latency on each side.
    expect(mostInAnyWindow(admitted, 400 - 60)).toBeLessThanOrEqual(5);
    expect(admitted.length).toBeGreaterThanOrEqual(10);
  });
});

describe("two instances on one Redis", () => {
  it("answer alike for the same key at the same moment, with no refusal remembered locally", async () => {
    const policy = { prefix: "test:two", limit: 4, windowSeconds: 2 };
    const [a, b] = [instance(policy), instance(policy)];
    const identifier = fresh("two");
    expect((await a.limit(identifier)).success).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 1; i < 4; i++) expect((await (i % 2 ? b : a).limit(identifier)).success).toBe(true);
    const refusedOnA = await a.limit(identifier);
    expect(refusedOnA).toMatchObject({ success: false, remaining: 0, store: "redis" });
    expect([await a.peek(identifier), await b.peek(identifier)].map((r) => [r.success, r.remaining])).toEqual([
      [false, 0],
      [false, 0],
    ]);
    // Once the oldest request has left the window, both see the room, and A uses it.
    await new Promise((r) => setTimeout(r, refusedOnA.reset - Date.now() + 20));
    const [peekA, peekB] = [await a.peek(identifier), await b.peek(identifier)];
    expect([peekA.success, peekA.remaining]).toEqual([true, 1]);
    expect([peekB.success, peekB.remaining]).toEqual([true, 1]);
    expect(Math.abs(peekA.reset - peekB.reset)).toBeLessThan(50);
    expect(await a.limit(identifier)).toMatchObject({ success: true, remaining: 0 });
    expect(await b.limit(identifier)).toMatchObject({ success: false, remaining: 0 });
  });

  it("agree even when one instance's clock is 45 s behind: the window runs on Redis's clock", async () => {
    const policy = { prefix: "test:skew", limit: 3, windowSeconds: 60 };
    const [slow, right] = [instance(policy), instance(policy)];
    const identifier = fresh("skew");
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, "now").mockImplementation(() => realNow() - 45_000);
    for (let i = 0; i < 3; i++) expect((await slow.limit(identifier)).success).toBe(true);
    const refusedOnSlow = await slow.limit(identifier);
    // Retry-After on the slow instance, counted on its own clock, is still the whole minute.
    expect(refusedOnSlow.reset - Date.now()).toBeGreaterThan(58_000);
    clock.mockRestore();
    const seenRight = await right.peek(identifier);
    expect([seenRight.success, seenRight.remaining]).toEqual([false, 0]);
    expect(seenRight.reset - Date.now()).toBeGreaterThan(58_000);
    expect(seenRight.reset - Date.now()).toBeLessThanOrEqual(60_000);
  });
});

describe("a Redis that refuses TIME in scripts", () => {
  it("falls back to the caller's clock and still limits", async () => {
    const restricted = await startRedisServer(["--rename-command", "TIME", ""]);
    try {
      const log = new RedisSlidingLog(connect(restricted.url), "test:notime", 2, 60_000);
      const answers = [await log.apply("record", "k"), await log.apply("record", "k"), await log.apply("record", "k")];
      expect(answers.map((a) => [a.allowed, a.remaining])).toEqual([
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(answers[2].resetInMs).toBeGreaterThan(59_000);
    } finally {
      await restricted.stop();
    }
  });
});
