import { randomInt } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { resetEnvCache } from "@/lib/env";
import { PEER_ADDRESS_HEADER } from "@/lib/ratelimit/client-address";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";

// Opens the database (seconds on first use) before any test measures itself.
beforeAll(() => mintKey());

const POLICY = '"per-key";q=120;w=60';
const ADDRESS_POLICY = '"per-address";q=60;w=60';
const RATE_LIMITED = {
  error: "rate_limited",
  message: "Rate limit exceeded for this API key. Retry after the time in Retry-After.",
};

function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function remainingOf(headers: Headers): number {
  return Number(/;r=(\d+);/.exec(headers.get("ratelimit") ?? "")?.[1]);
}

describe("per-key rate limit (memory store)", () => {
  it("gives exactly 120 of 130 parallel requests with one fresh key, then 429 with Retry-After", async () => {
    const { key } = await mintKey();
    const responses = await Promise.all(
      Array.from({ length: 130 }, () => call(getMe, "/api/v1/me", { headers: bearer(key) })),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(120);
    expect(refused).toHaveLength(10);
    expect(ok.map((r) => remainingOf(r.headers)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 120 }, (_, i) => i),
    );
    for (const r of refused) {
      expect(r.body).toEqual({ ...RATE_LIMITED, request_id: r.headers.get("x-request-id") });
      expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(r.headers.get("ratelimit-policy")).toBe(POLICY);
      expect(r.headers.get("ratelimit")).toMatch(/^"per-key";r=0;t=\d+$/);
      const retryAfter = r.headers.get("retry-after")!;
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    }
  }, 90_000);

  it("puts the headers on every keyed response: success, 403, 400 and 404", async () => {
    const { key } = await mintKey("acme", ["team:read"]);
    const { key: reportsKey } = await mintKey("acme", ["reports:read"]);
    const team = await call(listTeam, "/api/v1/team", { headers: bearer(key) });
    const forbidden = await call(listReports, "/api/v1/reports", { headers: bearer(key) });
    const badLimit = await call(listReports, "/api/v1/reports?limit=0", { headers: bearer(reportsKey) });
    const missing = await call(
      getReport,
      "/api/v1/reports/x",
      { headers: bearer(reportsKey) },
      { id: "00000000-0000-4000-8000-000000000000" },
    );
    expect([team.status, forbidden.status, badLimit.status, missing.status]).toEqual([200, 403, 400, 404]);
    for (const r of [team, forbidden, badLimit, missing]) {
      expect(r.headers.get("ratelimit-policy")).toBe(POLICY);
      expect(r.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
      expect(r.headers.get("retry-after")).toBeNull();
    }
    expect(remainingOf(team.headers)).toBe(119);
    expect(remainingOf(forbidden.headers)).toBe(118);
  });

  it("counts on the key, not the header text: Bearer and X-API-Key share one budget", async () => {
    const { key } = await mintKey();
    await call(getMe, "/api/v1/me", { headers: bearer(key) });
    const second = await call(getMe, "/api/v1/me", { headers: { "X-API-Key": key } });
    const third = await call(getMe, "/api/v1/me", { headers: { Authorization: `bearer   ${key}` } });
    expect(remainingOf(second.headers)).toBe(118);
    expect(remainingOf(third.headers)).toBe(117);
  });

  it("shares one budget between REST and MCP", async () => {
    const { key } = await mintKey();
    const ping = () =>
      call(mcpPost, "/api/mcp", {
        method: "POST",
        headers: { ...bearer(key), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
    const viaMcp = await Promise.all(Array.from({ length: 119 }, ping));
    expect(viaMcp.filter((r) => r.status === 429)).toHaveLength(0);
    const lastViaRest = await call(getMe, "/api/v1/me", { headers: bearer(key) });
    expect(lastViaRest.status).toBe(200);
    expect(remainingOf(lastViaRest.headers)).toBe(0);
    const refusedViaMcp = await ping();
    expect(refusedViaMcp.status).toBe(429);
    expect(refusedViaMcp.body).toMatchObject(RATE_LIMITED);
    const refusedViaRest = await call(getMe, "/api/v1/me", { headers: bearer(key) });
    expect(refusedViaRest.status).toBe(429);
  }, 90_000);
});

describe("per-address limit on requests without a valid key", () => {
  afterEach(() => {
    delete process.env.SUNDOWN_TRUST_PROXY;
    resetEnvCache();
  });

  it("answers 401 with per-address headers 60 times, then 429, and still serves a valid key", async () => {
    const address = randomAddress();
    const attempt = (headers: Record<string, string>) =>
      call(getMe, "/api/v1/me", { headers: { [PEER_ADDRESS_HEADER]: address, ...headers } });
    const failures = [];
    for (let i = 0; i < 60; i++) failures.push(await attempt(i % 2 ? { Authorization: "Bearer sdn_sk_guess" } : {}));
    expect(failures.map((r) => r.status)).toEqual(Array(60).fill(401));
    expect(failures[0].headers.get("ratelimit-policy")).toBe(ADDRESS_POLICY);
    expect(failures[0].headers.get("ratelimit")).toMatch(/^"per-address";r=59;t=\d+$/);
    expect(failures[59].headers.get("ratelimit")).toMatch(/^"per-address";r=0;t=\d+$/);

    const refused = await attempt({ Authorization: "Bearer sdn_sk_guess" });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: "rate_limited",
      message: "Too many requests without a valid API key from this address. Retry after the time in Retry-After.",
      request_id: refused.headers.get("x-request-id"),
    });
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);

    // The budget limits further failures only: a valid key from the same address is served (DESIGN §1).
    const { key } = await mintKey();
    expect((await attempt(bearer(key) as Record<string, string>)).status).toBe(200);
    // Other addresses are not affected.
    const elsewhere = await call(getMe, "/api/v1/me", { headers: { [PEER_ADDRESS_HEADER]: randomAddress() } });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get("ratelimit")).toMatch(/^"per-address";r=59;t=\d+$/);
  }, 90_000);

  it("does not count valid keys against the address", async () => {
    const address = randomAddress();
    const { key } = await mintKey();
    const ok = await call(getMe, "/api/v1/me", { headers: { [PEER_ADDRESS_HEADER]: address, ...bearer(key) } });
    const failed = await call(getMe, "/api/v1/me", { headers: { [PEER_ADDRESS_HEADER]: address } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-policy")).toBe(POLICY);
    expect(failed.status).toBe(401);
    expect(failed.headers.get("ratelimit")).toMatch(/^"per-address";r=59;t=\d+$/);
  });

  it("ignores X-Forwarded-For unless SUNDOWN_TRUST_PROXY is set", async () => {
    const address = randomAddress();
    const spoofed = () =>
      call(getMe, "/api/v1/me", { headers: { [PEER_ADDRESS_HEADER]: address, "X-Forwarded-For": randomAddress() } });
    await spoofed();
    expect((await spoofed()).headers.get("ratelimit")).toMatch(/^"per-address";r=58;/);

    process.env.SUNDOWN_TRUST_PROXY = "true";
    resetEnvCache();
    const forwarded = randomAddress();
    const viaProxy = () =>
      call(getMe, "/api/v1/me", {
        headers: { [PEER_ADDRESS_HEADER]: address, "X-Forwarded-For": `1.2.3.4, ${forwarded}` },
      });
    expect((await viaProxy()).headers.get("ratelimit")).toMatch(/^"per-address";r=59;/);
    expect((await viaProxy()).headers.get("ratelimit")).toMatch(/^"per-address";r=58;/);
  });
});
