import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Redis as IORedis } from "ioredis";
import { GET as getMe } from "@/app/api/v1/me/route";
import { resetEnvCache } from "@/lib/env";
import { closeRateLimitStores } from "@/lib/ratelimit/policies";
import { bearer, mintKey } from "../helpers/keys";
import { startRedisServer, type ThrowawayRedis } from "../helpers/redis-server";
import { loggedKeyRequests } from "../helpers/rolling-window";
import { call } from "../helpers/request";
import { startUpstashTranslator, type UpstashTranslator } from "../helpers/upstash-rest";

// The shared rate-limit store goes away and comes back (a real redis-server, stopped and started):
// the API keeps answering, limits per instance in memory meanwhile, says so once in the log, and
// counts in the store again once it is back.

const STORE_ENV = [
  "REDIS_URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "SUNDOWN_LOG_LEVEL",
  "SUNDOWN_RATE_LIMIT_STORE_TIMEOUT_MS",
] as const;
const saved = Object.fromEntries(STORE_ENV.map((name) => [name, process.env[name]]));

let redis: ThrowawayRedis;
let inspect: IORedis;

beforeAll(async () => {
  await mintKey();
  redis = await startRedisServer();
  inspect = new IORedis(redis.url, { retryStrategy: () => 100 });
  inspect.on("error", () => {});
});

afterEach(async () => {
  for (const name of STORE_ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvCache();
  await closeRateLimitStores();
  vi.restoreAllMocks();
});

afterAll(async () => {
  inspect.disconnect();
  await redis.stop();
});

function useStore(env: Partial<Record<(typeof STORE_ENV)[number], string>>) {
  // Generous: only an outage may send requests to memory here, never a store slowed by a loaded machine.
  Object.assign(process.env, env, { SUNDOWN_LOG_LEVEL: "info", SUNDOWN_RATE_LIMIT_STORE_TIMEOUT_MS: "5000" });
  resetEnvCache();
}

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const collect = (line: unknown) => {
    try {
      lines.push(JSON.parse(String(line)));
    } catch {
      // not one of ours
    }
  };
  vi.spyOn(console, "error").mockImplementation(collect);
  vi.spyOn(console, "log").mockImplementation(collect);
  return (msg: string) => lines.filter((l) => l.msg === msg);
}

const remainingOf = (headers: Headers) => Number(/;r=(\d+);/.exec(headers.get("ratelimit") ?? "")?.[1]);

async function outageScenario() {
  const logged = captureLog();
  const { key, id } = await mintKey();
  const me = () => call(getMe, "/api/v1/me", { headers: bearer(key) });

  for (let i = 0; i < 3; i++) expect((await me()).status).toBe(200);
  expect(await loggedKeyRequests(inspect, id)).toBe(3);

  await redis.stop();
  const during = [];
  for (let i = 0; i < 10; i++) during.push(await me());
  expect(during.map((r) => r.status)).toEqual(Array(10).fill(200));
  // Counted per instance from zero: this process has seen 10 requests of this key.
  expect(during.map((r) => remainingOf(r.headers))).toEqual([119, 118, 117, 116, 115, 114, 113, 112, 111, 110]);
  expect(during.every((r) => r.headers.get("ratelimit-policy") === '"per-key";q=120;w=60')).toBe(true);
  expect(logged("rate-limit store unreachable: limiting per instance in memory until it is back")).toHaveLength(1);

  // The limit still holds while degraded.
  const rest = await Promise.all(Array.from({ length: 111 }, me));
  expect(rest.filter((r) => r.status === 200)).toHaveLength(110);
  const refused = rest.find((r) => r.status === 429)!;
  expect(refused.body).toMatchObject({ error: "rate_limited" });
  expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);

  await redis.start();
  // Back in Redis, where this key has used 3 of 120: answered 200 again and counted there.
  let back;
  for (let attempt = 0; attempt < 100; attempt++) {
    back = await me();
    if (back.status === 200 && (await loggedKeyRequests(inspect, id)) === 4) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(back!.status).toBe(200);
  expect(remainingOf(back!.headers)).toBe(116);
  expect(await loggedKeyRequests(inspect, id)).toBe(4);
  expect(logged("rate-limit store reachable again")).toHaveLength(1);
}

describe("rate-limit store outage", () => {
  it("plain Redis: falls back to memory, logs once, returns to Redis", async () => {
    useStore({ REDIS_URL: redis.url });
    await outageScenario();
  }, 90_000);

  describe("Upstash", () => {
    let translator: UpstashTranslator;
    beforeAll(async () => {
      translator = await startUpstashTranslator(redis.url);
    });
    afterAll(() => translator.close());

    it("falls back to memory, logs once, returns to Upstash", async () => {
      useStore({ UPSTASH_REDIS_REST_URL: translator.url, UPSTASH_REDIS_REST_TOKEN: translator.token });
      await outageScenario();
    }, 90_000);
  });
});
