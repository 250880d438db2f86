import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { normalizeAddress, clientAddress, PEER_ADDRESS_HEADER } from "@/lib/http/client-address";
import { rateLimitHeaders } from "@/lib/http/rate-limit";
import { PolicyLimiter, StoreHealth } from "@/lib/ratelimit/limiter";
import { scriptSha, ShebangFreeScripts, stripLuaShebang } from "@/lib/ratelimit/lua";
import { MemorySlidingWindow } from "@/lib/ratelimit/memory-store";
import type { RemoteStore } from "@/lib/ratelimit/stores";

const MINUTE = 60_000;

describe("MemorySlidingWindow", () => {
  it("allows the limit within a window and refuses the next request", () => {
    const window = new MemorySlidingWindow(3, MINUTE);
    const start = 10 * MINUTE + 1_000;
    const results = [0, 1, 2, 3].map((i) => window.limit("k", start + i));
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results.every((r) => r.reset === 11 * MINUTE && r.limit === 3)).toBe(true);
  });

  it("weighs the previous window by how much of it still overlaps the rolling minute", () => {
    const window = new MemorySlidingWindow(10, MINUTE);
    for (let i = 0; i < 10; i++) window.limit("k", 10 * MINUTE + i);
    // 25% into the next window, 75% of the previous 10 still count: floor(7.5) = 7, room for 3.
    const next = 11 * MINUTE + MINUTE / 4;
    const results = [0, 1, 2, 3].map((i) => window.limit("k", next + i));
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    // Two windows later nothing of the burst is left.
    expect(window.limit("k", 13 * MINUTE).remaining).toBe(9);
  });

  it("counts identifiers separately", () => {
    const window = new MemorySlidingWindow(1, MINUTE);
    expect(window.limit("a", 5).success).toBe(true);
    expect(window.limit("a", 6).success).toBe(false);
    expect(window.limit("b", 7).success).toBe(true);
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
    expect(rateLimitHeaders({ success: false, limit: 60, remaining: 0, reset: Date.now() - 5 }, "per-address")).toEqual({
      "RateLimit-Policy": '"per-address";q=60;w=60',
      RateLimit: '"per-address";r=0;t=0',
      "Retry-After": "1",
    });
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
    const redis = { evalsha, eval: evalsha };
    return { kind: "redis", redis: redis as unknown as RemoteStore["redis"], close: async () => {} };
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

  it("uses the store's answer when it comes in time", async () => {
    const store = fakeStore(async () => [5, 2]);
    const limiter = new PolicyLimiter(policy, { store, health: new StoreHealth("redis") });
    const result = await limiter.limit("id");
    expect(result).toMatchObject({ success: true, store: "redis", remaining: 5, limit: 2 });
  });

  it("remembers a refusal until its reset", async () => {
    const limiter = new PolicyLimiter({ ...policy, limit: 1 });
    await limiter.limit("x");
    const refused = await limiter.limit("x");
    expect(refused.success).toBe(false);
    expect(limiter.refusedUntilTime("x")).toBe(refused.reset);
    expect(limiter.refusedUntilTime("x", refused.reset)).toBeUndefined();
    expect(limiter.refusedUntilTime("y")).toBeUndefined();
  });
});
