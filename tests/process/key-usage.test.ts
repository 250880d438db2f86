import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgres, installDbHandle, type DbHandle } from "@/lib/db";
import { listKeyUsage } from "@/lib/data/key-usage";
import type { UsageTotals } from "@/lib/usage/totals";
import { usageOutcome } from "@/lib/usage/record-key-request";
import { bearer, mintKey } from "../helpers/keys";
import { startPostgresServer, type ThrowawayPostgres } from "../helpers/postgres-server";
import { startServer, type RunningServer } from "../helpers/server";

// Issue 15: two real server processes on one PostgreSQL database each count the requests they serve per key in
// memory and add them to the database about once a minute (so this test takes one); the stored totals are then
// exactly the sum of what both answered.

const RATE_LIMIT = 5;
const USAGE_FLUSH_SECONDS = 10;

let postgres: ThrowawayPostgres;
let db: DbHandle;
let servers: RunningServer[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  const url = await postgres.createSundownDatabase("sundown_usage");
  db = openPostgres(url, 2);
  installDbHandle(db);
  // No shared rate-limit store: each instance gives a key its own budget, so each answers some 429s.
  // Counts reach the table a flush interval after an instance's first one: seconds here, a minute by default, and
  // still long after the requests below have been answered, which the test checks first.
  const env = {
    DATABASE_URL: url,
    SUNDOWN_RATE_LIMIT: String(RATE_LIMIT),
    SUNDOWN_KEY_USAGE_FLUSH_SECONDS: String(USAGE_FLUSH_SECONDS),
  };
  servers = [await startServer(env), await startServer(env)];
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await db?.close();
  postgres?.destroy();
});

async function get(server: RunningServer, path: string, key: string): Promise<number> {
  const response = await fetch(`${server.url}${path}`, { headers: bearer(key), signal: AbortSignal.timeout(30_000) });
  await response.arrayBuffer();
  return response.status;
}

describe("usage per key across two server processes", () => {
  it("stores exactly the sum of both instances' successes, client errors and rate-limited requests", async () => {
    const { id, key, organization } = await mintKey();
    const other = await mintKey("acme", ["team:read"]);
    const statuses: number[] = [];
    for (const server of servers) {
      statuses.push(await get(server, "/api/v1/reports?limit=0", key));
      statuses.push(...(await Promise.all(Array.from({ length: 9 }, () => get(server, "/api/v1/me", key)))));
      // A key without the reports:read scope: 403, a client error.
      expect(await get(server, "/api/v1/reports", other.key)).toBe(403);
    }
    const answered: UsageTotals = { successes: 0, client_errors: 0, rate_limited: 0 };
    for (const status of statuses) answered[usageOutcome(status)!] += 1;
    // Per instance: the 400 and 4 of the 9 within the budget of 5, the other 5 refused.
    expect(answered).toEqual({
      successes: 2 * (RATE_LIMIT - 1),
      client_errors: 2,
      rate_limited: 2 * (10 - RATE_LIMIT),
    });

    // Counted in memory: no request wrote its count.
    const before = await listKeyUsage(organization.id);
    expect(before(id).totals).toEqual({ successes: 0, client_errors: 0, rate_limited: 0 });

    // Each instance adds its counts a flush interval after its first one; then the totals are exactly the sum.
    const after = await vi.waitFor(
      async () => {
        const usageOf = await listKeyUsage(organization.id);
        expect(usageOf(id).totals).toEqual(answered);
        return usageOf;
      },
      { timeout: 60_000, interval: 500 },
    );
    expect(after(id).days.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), ...answered });
    expect(after(other.id).totals).toEqual({ successes: 0, client_errors: 2, rate_limited: 0 });
  }, 90_000);
});
