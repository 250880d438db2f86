import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { normalizeAddress, clientAddress, PEER_ADDRESS_HEADER } from "@/lib/ratelimit/client-address";
import { rateLimitHeaders } from "@/lib/http/rate-limit";
import { PolicyLimiter, StoreHealth } from "@/lib/ratelimit/limiter";
import { scriptSha, ShebangFreeScripts, stripLuaShebang } from "@/lib/ratelimit/lua";
import { MemorySlidingLog } from "@/lib/ratelimit/memory-store";
import type { RemoteStore } from "@/lib/ratelimit/stores";
import { BURST, BURST_ADMITTED, mostInAnyWindow, replayBurst } from "../helpers/rolling-window";

const MINUTE = 60_000;

describe("MemorySlidingLog", () => {
  it("admits the limit, refuses the next, and says when the oldest request leaves the window", () => {
    const log = new MemorySlidingLog(3, MINUTE);
    const start = 10 * MINUTE + 1_000;
    const answers = [0, 1, 2, 3].map((i) => log.apply("record", "k", start + i * 1_000));
    expect(answers).toEqual([
      { allowed: true, remaining: 2, resetInMs: MINUTE },
      { allowed: true, remaining: 1, resetInMs: MINUTE - 1_000 },
      { allowed: true, remaining: 0, resetInMs: MINUTE - 2_000 },
      { allowed: false, remaining: 0, resetInMs: MINUTE - 3_000 },
    ]);
    // The first request leaves exactly one window after it was admitted, and only it.
    expect(log.apply("record", "k", start + MINUTE - 1).allowed).toBe(false);
    expect(log.apply("record", "k", start + MINUTE)).toEqual({ allowed: true, remaining: 0, resetInMs: 1_000 });
  });

  it("admits at most the limit in any window-length interval under a burst at a window's end and a trickle after it", async () => {
    const log = new MemorySlidingLog(BURST.limit, BURST.windowMs);
    const answers = await replayBurst((at) => log.apply("record", "k", at));
    const admitted = answers.filter((a) => a.allowed).map((a) => a.at);
    expect(admitted).toEqual(BURST_ADMITTED);
    expect(mostInAnyWindow(admitted, BURST.windowMs)).toBe(BURST.limit);
    // Refused at 1800: the request of 900 leaves at 1900, in 100 ms.
    expect(answers.find((a) => a.at === 1_800)).toMatchObject({ allowed: false, remaining: 0, resetInMs: 100 });
  });

  it("peeks without counting", () => {
    const log = new MemorySlidingLog(1, MINUTE);
    expect(log.apply("peek", "k", 5)).toEqual({ allowed: true, remaining: 1, resetInMs: 0 });
    expect(log.apply("peek", "k", 6)).toEqual({ allowed: true, remaining: 1, resetInMs: 0 });
    expect(log.apply("record", "k", 7).allowed).toBe(true);
    expect(log.apply("peek", "k", 8)).toEqual({ allowed: false, remaining: 0, resetInMs: MINUTE - 1 });
  });

  it("counts identifiers separately", () => {
    const log = new MemorySlidingLog(1, MINUTE);
    expect(log.apply("record", "a", 5).allowed).toBe(true);
    expect(log.apply("record", "a", 6).allowed).toBe(false);
    expect(log.apply("record", "b", 7).allowed).toBe(true);
  });

  it("keeps its log ordered when the clock steps back", () => {
    const log = new MemorySlidingLog(2, MINUTE);
    log.apply("record", "k", 10_000);
    log.apply("record", "k", 4_000);
    // 4000 leaves first: at 64000 one slot is free again, and the next leaves at 70000.
    expect(log.apply("record", "k", 64_000)).toEqual({ allowed: true, remaining: 0, resetInMs: 6_000 });
  });
});

describe("rateLimitHeaders", () => {
  it("formats the IETF draft headers for an allowed request", () => {
    const headers = rateLimitHeaders({ success: true, limit: 120, remaining: 119, reset: Date.now() + 42_500 });
    expect(headers).toEqual({ "RateLimit-Policy": '"per-key";q=120;w=60', RateLimit: '"per-key";r=119;t=43' });
  });

  it("adds Retry-After in whole seconds, at least 1, to a refusal", () => {
    expect(rateLimitHeaders({ success: false, limit: 120, remaining: 0, reset: Date.now() + 2_100 })).toEqual({
      "RateLimit-Policy": '"per-key";q=120;w=60',
      RateLimit: '"per-key";r=0;t=3',
      "Retry-After": "3",
    });
    expect(rateLimitHeaders({ success: false, limit: 60, remaining: 0, reset: Date.now() - 5 }, "per-address")).toEqual(
      {
        "RateLimit-Policy": '"per-address";q=60;w=60',
        RateLimit: '"per-address";r=0;t=0',
        "Retry-After": "1",
      },
    );
  });
});

describe("Lua shebang", () => {
  const script = "#!lua flags=allow-key-locking\n  local key = KEYS[1]\n  return 1\n";

  it("strips the first line only when it is a shebang", () => {
    expect(stripLuaShebang(script)).toBe("  local key = KEYS[1]\n  return 1\n");
    expect(stripLuaShebang("return 1")).toBe("return 1");
  });

  it("maps the client's SHA to the SHA of the script Redis loaded, and knows nothing before EVAL", () => {
    const scripts = new ShebangFreeScripts();
    expect(scripts.translate(scriptSha(script))).toBeUndefined();
    const prepared = scripts.prepare(script);
    expect(prepared.script).toBe(stripLuaShebang(script));
    expect(scripts.translate(scriptSha(script))).toBe(scriptSha(prepared.script));
  });
});

describe("client address", () => {
  afterEach(() => {
    delete process.env.SUNDOWN_TRUST_PROXY;
    resetEnvCache();
  });

  it("normalizes IPv4, IPv4-mapped IPv6 and groups IPv6 by /64", () => {
    expect(normalizeAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(normalizeAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(normalizeAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("[2001:db8::1]")).toBe("2001:db8:0:0::/64");
    expect(normalizeAddress("::1")).toBe("0:0:0:0::/64");
    expect(normalizeAddress("not-an-address")).toBeUndefined();
    expect(normalizeAddress("")).toBeUndefined();
  });

  it("ignores X-Forwarded-For unless SUNDOWN_TRUST_PROXY is set", () => {
    const headers = new Headers({ "x-forwarded-for": "198.51.100.1, 198.51.100.2", [PEER_ADDRESS_HEADER]: "10.0.0.9" });
    expect(clientAddress(headers)).toBe("10.0.0.9");
    process.env.SUNDOWN_TRUST_PROXY = "1";
    resetEnvCache();
    // The entry the nearest proxy appended, not the client's own claim on the left.
    expect(clientAddress(headers)).toBe("198.51.100.2");
  });

  it("is unknown when the server did not record the peer", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.1" }))).toBeUndefined();
  });
});

describe("PolicyLimiter fallback", () => {
  function fakeStore(evalsha: () => Promise<unknown>): RemoteStore {
    return { kind: "redis", redis: { evalsha, eval: evalsha }, close: async () => {} };
  }
  const policy = { prefix: "unit", limit: 2, windowSeconds: 60 };

  afterEach(() => vi.restoreAllMocks());

  it("counts in memory while the store fails, warns once, and says so in the result", async () => {
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    process.env.SUNDOWN_LOG_LEVEL = "warn";
    resetEnvCache();
    try {
      const store = fakeStore(() => Promise.reject(new Error("ECONNREFUSED")));
      const limiter = new PolicyLimiter(policy, { store, health: new StoreHealth("redis") });
      const results = [await limiter.limit("id"), await limiter.limit("id"), await limiter.limit("id")];
      expect(results.map((r) => [r.success, r.store])).toEqual([
        [true, "memory-fallback"],
        [true, "memory-fallback"],
        [false, "memory-fallback"],
      ]);
      const warnings = warn.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: "warn", store: "redis", error: "ECONNREFUSED" });
    } finally {
      process.env.SUNDOWN_LOG_LEVEL = "silent";
      resetEnvCache();
    }
  });

  it("gives up on a store that does not answer within the timeout", async () => {
    const store = fakeStore(() => new Promise(() => {}));
    const limiter = new PolicyLimiter(policy, { store, health: new StoreHealth("redis") });
    const result = await limiter.limit("id");
    expect(result).toMatchObject({ success: true, store: "memory-fallback", limit: 2, remaining: 1 });
  });

  it("waits as long as configured: a store answering in 300 ms is used with a 1 s timeout, not with the default", async () => {
    const slow = () => fakeStore(() => new Promise((resolve) => setTimeout(() => resolve([1, 0, 42_000]), 300)));
    const patient = new PolicyLimiter(
      policy,
      { store: slow(), health: new StoreHealth("redis") },
      { storeTimeoutMs: 1_000 },
    );
    expect(await patient.limit("id")).toMatchObject({ store: "redis" });
    const hasty = new PolicyLimiter(policy, { store: slow(), health: new StoreHealth("redis") });
    expect(await hasty.limit("id")).toMatchObject({ store: "memory-fallback" });
  });

  it("uses the store's answer when it comes in time, its reset counted from this instance's clock", async () => {
    const store = fakeStore(async () => [0, 0, 42_000]);
    const limiter = new PolicyLimiter(policy, { store, health: new StoreHealth("redis") });
    const before = Date.now();
    const result = await limiter.limit("id");
    expect(result).toMatchObject({ success: false, store: "redis", remaining: 0, limit: 2 });
    expect(result.reset - before).toBeGreaterThanOrEqual(42_000);
    expect(result.reset - Date.now()).toBeLessThanOrEqual(42_000);
  });
});
