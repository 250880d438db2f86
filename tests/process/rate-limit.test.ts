import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis as IORedis } from "ioredis";
import { openPostgres, installDbHandle, type DbHandle } from "@/lib/db";
import { bearer, mintKey } from "../helpers/keys";
import { startPostgresServer, type ThrowawayPostgres } from "../helpers/postgres-server";
import { startRedisServer, type ThrowawayRedis } from "../helpers/redis-server";
import { loggedKeyRequests } from "../helpers/rolling-window";
import { startServer, type RunningServer } from "../helpers/server";

// Two real server processes, one PostgreSQL database and one Redis: the per-key limit holds across
// instances, exactly, and failed authentication is limited per socket address.

let postgres: ThrowawayPostgres;
let redis: ThrowawayRedis;
let db: DbHandle;
let inspect: IORedis;
let servers: RunningServer[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  const url = await postgres.createSundownDatabase("sundown_ratelimit");
  db = openPostgres(url, 2);
  installDbHandle(db);
  redis = await startRedisServer();
  inspect = new IORedis(redis.url);
  // Exact counts need every request counted in Redis: a loaded machine may keep Redis from answering within the
  // default 100 ms, and a request counted in memory instead would be admitted beyond the shared budget.
  const env = { DATABASE_URL: url, REDIS_URL: redis.url, SUNDOWN_RATE_LIMIT_STORE_TIMEOUT_MS: "5000" };
  servers = [await startServer(env), await startServer(env)];
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  inspect?.disconnect();
  await db?.close();
  await redis?.stop();
  postgres?.destroy();
});

const get = (server: RunningServer, path: string, headers: HeadersInit = {}) =>
  fetch(`${server.url}${path}`, { headers, signal: AbortSignal.timeout(30_000) });

describe("per-key limit across two processes sharing one Redis", () => {
  it("gives exactly 120 of 130 parallel requests split across both servers", async () => {
    // Each server connects to Redis and loads its route before the burst.
    const { key: warmKey } = await mintKey();
    for (const server of servers) expect((await get(server, "/api/v1/me", bearer(warmKey))).status).toBe(200);

    const { key, id } = await mintKey();
    const responses = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        get(servers[i % 2], "/api/v1/me", bearer(key)).then(async (r) => ({
          status: r.status,
          body: await r.json(),
          headers: r.headers,
          server: i % 2,
        })),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(120);
    expect(refused).toHaveLength(10);
    expect(new Set(ok.map((r) => r.server))).toEqual(new Set([0, 1]));
    for (const r of refused) {
      expect(r.body).toMatchObject({ error: "rate_limited" });
      expect(r.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      expect(r.headers.get("ratelimit-policy")).toBe('"per-key";q=120;w=60');
    }
    expect(await loggedKeyRequests(inspect, id)).toBe(120);

    // At the same moment both servers tell the same story for the key: refused, with the same wait and nothing
    // left (issue 11: one instance's local refusal cache once answered 429 while the other still served).
    const [a, b] = await Promise.all(servers.map((server) => get(server, "/api/v1/me", bearer(key))));
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(Math.abs(Number(a.headers.get("retry-after")) - Number(b.headers.get("retry-after")))).toBeLessThanOrEqual(
      1,
    );
    expect([a.headers.get("ratelimit"), b.headers.get("ratelimit")].map((h) => h?.replace(/t=\d+/, ""))).toEqual([
      '"per-key";r=0;',
      '"per-key";r=0;',
    ]);
  });

  it("sends API headers and no X-Powered-By from the real server, and answers CORS preflights", async () => {
    const { key } = await mintKey();
    const response = await get(servers[0], "/api/v1/me", bearer(key));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const preflight = await fetch(`${servers[1].url}/api/v1/reports`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://agent.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization,if-none-match",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "Authorization, X-API-Key, If-None-Match, X-Request-Id",
    );
    expect(preflight.headers.get("x-powered-by")).toBeNull();
  });
});

describe("failed authentication per client address", () => {
  // Runs last: it leaves 127.0.0.1 refused on both servers for up to a minute.
  it("refuses the 61st failure with 429 on either server, whatever X-Forwarded-For claims", async () => {
    const failures = [];
    for (let i = 0; i < 60; i++) {
      const response = await get(servers[i % 2], "/api/v1/me", {
        Authorization: "Bearer sdn_sk_guess",
        "X-Forwarded-For": `192.0.2.${i + 1}`,
      });
      failures.push(response.status);
    }
    expect(failures).toEqual(Array(60).fill(401));
    for (const server of servers) {
      const refused = await get(server, "/api/v1/me", {
        Authorization: "Bearer sdn_sk_guess",
        "X-Forwarded-For": "198.51.100.99",
      });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ error: "rate_limited" });
      expect(refused.headers.get("ratelimit-policy")).toBe('"per-address";q=60;w=60');
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    }
  });
});
