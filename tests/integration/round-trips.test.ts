import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import type { Scope } from "@/lib/auth/scopes";
import { getDbHandle, openPostgres } from "@/lib/db";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";

// Issue 7's hot path: a keyed REST request costs one database round trip (key, organization and data
// in one statement). Counted at the driver, below Prisma and lib/db/sql.ts alike, so any query from
// anywhere counts.

afterEach(() => vi.restoreAllMocks());

async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const { kind } = await getDbHandle();
  const spy = kind === "postgres" ? vi.spyOn(pg.Pool.prototype, "query") : vi.spyOn(PGlite.prototype, "query");
  const result = await work();
  const statements = spy.mock.calls.length;
  spy.mockRestore();
  return { result, statements };
}

/** A key that has been used once already, so its last-use write (once a minute) is behind it. */
async function usedKey(scopes?: Scope[]) {
  const minted = await mintKey("acme", scopes);
  expect((await call(getMe, "/api/v1/me", { headers: bearer(minted.key) })).status).toBe(200);
  await vi.waitFor(async () => {
    const again = await countStatements(() => call(getMe, "/api/v1/me", { headers: bearer(minted.key) }));
    expect(again.statements).toBe(1);
  });
  return minted;
}

describe("one database round trip per keyed request", () => {
  it.each([
    ["GET /api/v1/me", getMe, "/api/v1/me", {}],
    ["GET /api/v1/reports", listReports, "/api/v1/reports?limit=5", {}],
    ["GET /api/v1/team", listTeam, "/api/v1/team", {}],
  ] as const)("%s: one statement, and a 200 with the data", async (_name, handler, path, params) => {
    const { key } = await usedKey();
    const { result, statements } = await countStatements(() => call(handler, path, { headers: bearer(key) }, params));
    expect(result.status).toBe(200);
    expect(statements).toBe(1);
  });

  it("GET /api/v1/reports/{id}: one statement for a report that exists and for one that does not", async () => {
    const { key } = await usedKey();
    const list = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(key) });
    const id = list.body.reports[0].id as string;
    const found = await countStatements(() => call(getReport, `/api/v1/reports/${id}`, { headers: bearer(key) }, { id }));
    expect(found.result.status).toBe(200);
    expect(found.result.body.id).toBe(id);
    expect(found.statements).toBe(1);
    const missing = "00000000-0000-4000-8000-000000000000";
    const absent = await countStatements(() => call(getReport, `/api/v1/reports/${missing}`, { headers: bearer(key) }, { id: missing }));
    expect(absent.result.status).toBe(404);
    expect(absent.statements).toBe(1);
  });

  it("invalid parameters still cost only the key lookup, and answer 400 after the key checks", async () => {
    const { key } = await usedKey();
    const { result, statements } = await countStatements(() => call(listReports, "/api/v1/reports?limit=0", { headers: bearer(key) }));
    expect(result.status).toBe(400);
    expect(result.body.error).toBe("invalid_parameter");
    expect(statements).toBe(1);
  });

  it("a malformed key costs no statement at all", async () => {
    const { result, statements } = await countStatements(() =>
      call(listReports, "/api/v1/reports", { headers: bearer("sdn_sk_not-a-key") }),
    );
    expect(result.status).toBe(401);
    expect(statements).toBe(0);
  });

  it("a key without the scope gets 403 and no data, even when the read travels with the lookup", async () => {
    const { key } = await usedKey(["team:read"]);
    const res = await call(listReports, "/api/v1/reports", { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).not.toHaveProperty("reports");
    expect(res.text).not.toMatch(/headline|generated_at/);
  });
});

// PostgreSQL only: the reads are named prepared statements unless DATABASE_PREPARED_STATEMENTS=false,
// which a transaction-mode pooler without prepared-statement support needs. Checked on the server.
describe.runIf(process.env.DATABASE_URL)("prepared statements on PostgreSQL", () => {
  it.each([
    [true, 1],
    [false, 0],
  ] as const)("prepared=%s leaves %i named statement on the connection", async (prepared, expected) => {
    const handle = openPostgres(process.env.DATABASE_URL!, 1, prepared);
    try {
      expect(await handle.sql.rows({ name: "sundown-test", text: "SELECT $1::int AS n" }, [7])).toEqual([{ n: 7 }]);
      const named = await handle.sql.rows(
        { name: "sundown-test-list", text: "SELECT name FROM pg_prepared_statements WHERE name = 'sundown-test'" },
        [],
      );
      expect(named).toHaveLength(expected);
    } finally {
      await handle.close();
    }
  });
});
