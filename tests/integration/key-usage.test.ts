import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { revokeApiKey } from "@/lib/data/api-keys";
import { addKeyUsage, listKeyUsage, usageWindow, utcDay } from "@/lib/data/key-usage";
import { flushKeyUsage } from "@/lib/usage/record-key-request";
import { UsageCounter } from "@/lib/usage/counter";
import { withEnv } from "../helpers/env";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";

// Issue 15: requests per key per day, counted for the key a request presented and added to the database by a flush.

beforeAll(() => mintKey());
afterEach(() => vi.useRealTimers());

async function todayOf(keyId: string, organizationId: string) {
  const usageOf = await listKeyUsage(organizationId);
  return usageOf(keyId).days.at(-1)!;
}

const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

describe("counting requests per key", () => {
  it("splits a key's requests into successes, client errors and rate-limited, REST and MCP alike", () =>
    withEnv({ SUNDOWN_RATE_LIMIT: "4" }, async () => {
      const { id, key, organization } = await mintKey("acme", ["team:read"]);
      const statuses = [
        (await call(getMe, "/api/v1/me", { headers: bearer(key) })).status,
        (await call(getMe, "/api/v1/me", { headers: bearer(key) })).status,
        (await call(listReports, "/api/v1/reports", { headers: bearer(key) })).status,
        (
          await call(mcpPost, "/api/mcp", {
            method: "POST",
            headers: { ...bearer(key), ...MCP_HEADERS },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
          })
        ).status,
        (await call(getMe, "/api/v1/me", { headers: bearer(key) })).status,
        (await call(listReports, "/api/v1/reports?limit=0", { headers: bearer(key) })).status,
      ];
      expect(statuses).toEqual([200, 200, 403, 200, 429, 429]);
      await flushKeyUsage();
      expect(await todayOf(id, organization.id)).toEqual({
        date: utcDay(Date.now()),
        successes: 3,
        client_errors: 1,
        rate_limited: 2,
      });
    }));

  it("counts a bad parameter as a client error, and nothing for a key that is unknown, malformed or revoked", async () => {
    const { id, key, organization } = await mintKey("acme", ["reports:read"]);
    const revoked = await mintKey("acme");
    await revokeApiKey(revoked.organization.id, revoked.id, { label: "test" });
    expect((await call(listReports, "/api/v1/reports?limit=0", { headers: bearer(key) })).status).toBe(400);
    expect((await call(getMe, "/api/v1/me", { headers: bearer(revoked.key) })).status).toBe(401);
    expect((await call(getMe, "/api/v1/me", { headers: bearer("sdn_sk_malformed") })).status).toBe(401);
    await flushKeyUsage();
    expect(await todayOf(id, organization.id)).toMatchObject({ successes: 0, client_errors: 1, rate_limited: 0 });
    const noUsage = { successes: 0, client_errors: 0, rate_limited: 0 };
    expect(await todayOf(revoked.id, revoked.organization.id)).toMatchObject(noUsage);
  });

  it("writes the counts after the response of the first request a minute after the last flush, unasked", async () => {
    const { id, key, organization } = await mintKey();
    await flushKeyUsage();
    expect((await call(getMe, "/api/v1/me", { headers: bearer(key) })).status).toBe(200);
    expect((await todayOf(id, organization.id)).successes).toBe(0);
    // As a serverless instance wakes up a minute later: its timer never fired, the next request flushes.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    expect((await call(getMe, "/api/v1/me", { headers: bearer(key) })).status).toBe(200);
    vi.useRealTimers();
    await vi.waitFor(async () => expect((await todayOf(id, organization.id)).successes).toBe(2));
  });

  it("counts nothing when SUNDOWN_KEY_USAGE is off", () =>
    withEnv({ SUNDOWN_KEY_USAGE: "false" }, async () => {
      const { id, key, organization } = await mintKey();
      expect((await call(getMe, "/api/v1/me", { headers: bearer(key) })).status).toBe(200);
      await flushKeyUsage();
      expect(await todayOf(id, organization.id)).toMatchObject({ successes: 0 });
    }));
});

describe("stored usage", () => {
  it("adds each flush to what is stored, and skips counts of a key that no longer exists", async () => {
    const { id, organization } = await mintKey();
    const day = utcDay(Date.now());
    const counts = {
      apiKeyId: id,
      organizationId: organization.id,
      day,
      successes: 5,
      client_errors: 2,
      rate_limited: 1,
    };
    const gone = { ...counts, apiKeyId: randomUUID() };
    await addKeyUsage([counts, gone], randomUUID());
    await addKeyUsage([counts], randomUUID());
    expect(await todayOf(id, organization.id)).toEqual({ date: day, successes: 10, client_errors: 4, rate_limited: 2 });
  });

  it("a batch written again under its id (its first reply lost after the commit) is not added twice", async () => {
    const { id, organization } = await mintKey();
    const day = utcDay(Date.now());
    const batch = [
      { apiKeyId: id, organizationId: organization.id, day, successes: 10, client_errors: 0, rate_limited: 0 },
    ];
    const batchId = randomUUID();
    await addKeyUsage(batch, batchId);
    await addKeyUsage(batch, batchId);
    expect(await todayOf(id, organization.id)).toEqual({ date: day, successes: 10, client_errors: 0, rate_limited: 0 });
  });

  it("a flush whose write committed but whose reply was lost counts its requests once", async () => {
    const { id, organization } = await mintKey();
    let replies = 0;
    const counter = new UsageCounter({
      intervalMs: 60_000,
      write: async (counts, batchId) => {
        await addKeyUsage(counts, batchId);
        // The first reply is lost on the way back: the database has the batch, the instance does not know.
        if (replies++ === 0) throw new Error("Connection terminated unexpectedly");
      },
    });
    for (let i = 0; i < 10; i++) counter.record(id, organization.id, "successes");
    await expect(counter.flush()).rejects.toThrow("Connection terminated");
    counter.record(id, organization.id, "successes");
    await counter.flush();
    expect((await todayOf(id, organization.id)).successes).toBe(11);
  });

  it("reads the last 30 UTC days of each key, zero-filled, without other days or other organizations' counts", async () => {
    const { id, organization } = await mintKey();
    const other = await mintKey("globex");
    const now = new Date("2026-03-31T23:30:00Z");
    const window = usageWindow(now);
    expect(window).toHaveLength(30);
    expect([window[0], window.at(-1)]).toEqual(["2026-03-02", "2026-03-31"]);
    const at = (apiKeyId: string, organizationId: string, day: string, successes: number) => ({
      apiKeyId,
      organizationId,
      day,
      successes,
      client_errors: 0,
      rate_limited: 0,
    });
    await addKeyUsage(
      [
        at(id, organization.id, "2026-03-01", 100),
        at(id, organization.id, "2026-03-02", 1),
        at(id, organization.id, "2026-03-31", 2),
        at(id, organization.id, "2026-04-01", 300),
        at(other.id, other.organization.id, "2026-03-15", 7),
      ],
      randomUUID(),
    );
    const neverUsed = await mintKey();
    const usageOf = await listKeyUsage(organization.id, now);
    const days = usageOf(id).days;
    expect(days.map((d) => d.date)).toEqual(window);
    expect(days.filter((d) => d.successes > 0)).toEqual([
      { date: "2026-03-02", successes: 1, client_errors: 0, rate_limited: 0 },
      { date: "2026-03-31", successes: 2, client_errors: 0, rate_limited: 0 },
    ]);
    expect(usageOf(id).totals).toEqual({ successes: 3, client_errors: 0, rate_limited: 0 });
    expect(usageOf(neverUsed.id).totals).toEqual({ successes: 0, client_errors: 0, rate_limited: 0 });
    expect(usageOf(other.id).totals.successes).toBe(0);
  });
});
