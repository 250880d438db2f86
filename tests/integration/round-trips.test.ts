import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { POST as postMcp } from "@/app/api/mcp/route";
import type { Scope } from "@/lib/auth/scopes";
import { generateApiKey } from "@/lib/auth/api-key";
import { revokeApiKey } from "@/lib/data/api-keys";
import { getDb, openPostgres } from "@/lib/db";
import { flushKeyUsage } from "@/lib/usage/record-key-request";
import { withEnv } from "../helpers/env";
import { bearer, mintKey } from "../helpers/keys";
import { toolCallInit } from "../helpers/mcp-client";
import { call } from "../helpers/request";
import { captureStatements, tablesRead } from "../helpers/statements";

// Issue 7's hot path: a keyed REST request costs one database round trip (key, organization and data
// in one statement). Counted at the driver, below Prisma and lib/db/sql.ts alike, so any query from
// anywhere counts.

afterEach(() => vi.restoreAllMocks());
// Opens the database (seconds on first use) before any test counts.
beforeAll(() => mintKey());
// Usage is counted in memory and written by a flush about once a minute (lib/usage/), never by the request: with a
// flush just behind, none falls due while a test counts, and the requests counted here write nothing.
beforeEach(() => flushKeyUsage());

async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const { result, statements } = await captureStatements(work);
  return { result, statements: statements.length };
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
    // As on a warm instance: the organization's contact details read once already (lib/data/held-contacts.ts).
    await call(handler, path, { headers: bearer(key) }, params);
    const { result, statements } = await countStatements(() => call(handler, path, { headers: bearer(key) }, params));
    expect(result.status).toBe(200);
    expect(statements).toBe(1);
  });

  it("GET /api/v1/reports/{id}: one statement for a report that exists and for one that does not", async () => {
    const { key } = await usedKey();
    const list = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(key) });
    const id = list.body.reports[0].id as string;
    const found = await countStatements(() =>
      call(getReport, `/api/v1/reports/${id}`, { headers: bearer(key) }, { id }),
    );
    expect(found.result.status).toBe(200);
    expect(found.result.body.id).toBe(id);
    expect(found.statements).toBe(1);
    const missing = "00000000-0000-4000-8000-000000000000";
    const absent = await countStatements(() =>
      call(getReport, `/api/v1/reports/${missing}`, { headers: bearer(key) }, { id: missing }),
    );
    expect(absent.result.status).toBe(404);
    expect(absent.statements).toBe(1);
  });

  it("invalid parameters still cost only the key lookup, and answer 400 after the key checks", async () => {
    const { key } = await usedKey();
    const { result, statements } = await countStatements(() =>
      call(listReports, "/api/v1/reports?limit=0", { headers: bearer(key) }),
    );
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

// Issue 11 item 8: a request that is refused pays for no read of the organization's data. What the statements
// touched is asked of the database: each statement the request sent is run again under EXPLAIN ANALYZE.
const KEY_TABLES = ["api_keys", "organizations"];
const READS = [
  ["GET /api/v1/reports", listReports, "/api/v1/reports?limit=5"],
  ["GET /api/v1/team", listTeam, "/api/v1/team"],
] as const;
const SMALL_LIMIT = 3;

/** Runs `work` with a per-key budget of SMALL_LIMIT requests a minute. */
const withSmallLimit = <T>(work: () => Promise<T>) => withEnv({ SUNDOWN_RATE_LIMIT: String(SMALL_LIMIT) }, work);

async function tablesReadBy(work: () => Promise<{ status: number }>) {
  const { result, statements } = await captureStatements(work);
  const tables = new Set<string>();
  for (const statement of statements) for (const table of await tablesRead(statement)) tables.add(table);
  return { status: result.status, statements: statements.length, tables: [...tables].sort() };
}

async function expireKey(id: string) {
  await (await getDb()).apiKey.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
}

describe("MCP tools/call: one round trip too, in both eras", () => {
  function toolCall(key: string, era: "2025" | "2026", name: string, args: Record<string, unknown> = {}) {
    const init = toolCallInit(
      era === "2026" ? "2026-07-28" : "2025-11-25",
      name,
      args,
      bearer(key) as Record<string, string>,
    );
    return call(postMcp, "/api/mcp", init);
  }

  it.each([
    ["2025", "list_reports", { limit: 3 }],
    ["2026", "list_reports", { limit: 3 }],
    ["2025", "list_team", {}],
    ["2026", "whoami", {}],
  ] as const)("%s %s: one statement, and the data", async (era, name, args) => {
    const { key } = await usedKey();
    const { result, statements } = await countStatements(() => toolCall(key, era, name, args));
    expect(result.status).toBe(200);
    expect(result.body.result.isError).toBeFalsy();
    expect(result.body.result.structuredContent).toBeTruthy();
    expect(statements).toBe(1);
  });

  it("a key without the tool's scope reads nothing: one statement, and a tool error naming the scope", async () => {
    const { key } = await usedKey(["team:read"]);
    const { result, statements } = await countStatements(() => toolCall(key, "2026", "list_reports"));
    expect(result.body.result.isError).toBe(true);
    expect(result.body.result.content[0].text).toContain("required_scope: reports:read");
    expect(statements).toBe(1);
  });

  it.each(["2025", "2026"] as const)(
    "%s get_report of a report that does not exist: one statement, and not_found",
    async (era) => {
      const { key } = await usedKey();
      const missing = "00000000-0000-4000-8000-000000000000";
      const { result, statements } = await countStatements(() => toolCall(key, era, "get_report", { id: missing }));
      expect(result.body.result.isError).toBe(true);
      expect(result.body.result.content[0].text).toMatch(/^not_found: /);
      expect(statements).toBe(1);
    },
  );

  it("arguments the tool refuses cost the key lookup alone", async () => {
    const { key } = await usedKey();
    const { result, statements } = await countStatements(() => toolCall(key, "2025", "list_reports", { limit: 0 }));
    expect(result.body.result.isError).toBe(true);
    expect(statements).toBe(1);
  });
});

describe("a refused request pays for no read", () => {
  it.each(READS)("%s answered 429 on a warm key: one statement, on the key's tables only", (_name, handler, path) =>
    withSmallLimit(async () => {
      const { key } = await usedKey();
      for (let i = 0; i < SMALL_LIMIT; i++) await call(handler, path, { headers: bearer(key) });
      const refused = await tablesReadBy(() => call(handler, path, { headers: bearer(key) }));
      expect(refused).toEqual({ status: 429, statements: 1, tables: KEY_TABLES });
    }),
  );

  it("an admitted request on a warm key reads the data in its one statement; a change of contact details costs the next one a second", async () => {
    const { key, organization } = await usedKey();
    const list = () => tablesReadBy(() => call(listReports, "/api/v1/reports", { headers: bearer(key) }));
    const withContacts = ["api_keys", "member_contacts", "members", "organizations", "reports", "users"];
    const withoutContacts = ["api_keys", "organizations", "reports"];
    // members, member_contacts and users: the organization's own contact details, which scrubbing needs. The statement brings
    // only their version; a version this process does not hold yet is asked for again with the details.
    await list();
    expect(await list()).toEqual({ status: 200, statements: 1, tables: withoutContacts });
    const db = await getDb();
    const member = await db.member.findFirstOrThrow({ where: { organizationId: organization.id } });
    try {
      await db.member.update({ where: { id: member.id }, data: { chatHandle: `${member.chatHandle}-moved` } });
      expect(await list()).toEqual({ status: 200, statements: 2, tables: withContacts });
      expect(await list()).toEqual({ status: 200, statements: 1, tables: withoutContacts });
    } finally {
      await db.member.update({ where: { id: member.id }, data: { chatHandle: member.chatHandle } });
    }
  });

  it.each(READS)("%s with a key that expired since its last use: 401, and no read", async (_name, handler, path) => {
    const { key, id } = await usedKey();
    await expireKey(id);
    const expired = await tablesReadBy(() => call(handler, path, { headers: bearer(key) }));
    expect(expired).toEqual({ status: 401, statements: 1, tables: KEY_TABLES });
  });

  it("a key that had expired before its first use: 401, and no read", async () => {
    const { key } = await mintKey("acme", undefined, new Date(Date.now() - 60_000));
    const expired = await tablesReadBy(() => call(listReports, "/api/v1/reports", { headers: bearer(key) }));
    expect(expired).toMatchObject({ status: 401, tables: KEY_TABLES });
  });

  it("a revoked key over its limit still gets 401, not 429", () =>
    withSmallLimit(async () => {
      const { key, id, organization } = await usedKey();
      for (let i = 1; i <= SMALL_LIMIT; i++) await call(getMe, "/api/v1/me", { headers: bearer(key) });
      expect((await call(getMe, "/api/v1/me", { headers: bearer(key) })).status).toBe(429);
      await revokeApiKey(organization.id, id, { label: "test" });
      const revoked = await call(listReports, "/api/v1/reports", { headers: bearer(key) });
      expect(revoked.status).toBe(401);
      expect(revoked.body.message).toBe("The API key has been revoked.");
    }));

  it("a key's first request on this instance: its lookup, then the read on its own; the next, one statement", async () => {
    // The organization's contact details held already (another key's list read them), as on a warm instance.
    const warm = await usedKey();
    expect((await call(listReports, "/api/v1/reports", { headers: bearer(warm.key) })).status).toBe(200);
    const { key } = await mintKey();
    const reads = async () => {
      const { result, statements } = await captureStatements(() =>
        call(listReports, "/api/v1/reports", { headers: bearer(key) }),
      );
      expect(result.status).toBe(200);
      // The once-a-minute last-use write may land in the window; it is not a read.
      return statements.filter((s) => !/^\s*UPDATE/i.test(s.text)).length;
    };
    expect(await reads()).toBe(2);
    expect(await reads()).toBe(1);
  });

  it("a well-formed unknown key costs one statement on the key table alone", async () => {
    const unknown = generateApiKey().secret;
    const refused = await tablesReadBy(() => call(listReports, "/api/v1/reports", { headers: bearer(unknown) }));
    expect(refused).toEqual({ status: 401, statements: 1, tables: ["api_keys"] });
  });
});

// PostgreSQL only: on a direct connection the reads are named prepared statements unless
// DATABASE_PREPARED_STATEMENTS=false says otherwise. Checked on the server.
describe.runIf(process.env.DATABASE_URL)("prepared statements on PostgreSQL", () => {
  it.for([
    ["auto", 1],
    ["named", 1],
    ["unnamed", 0],
  ] as const)("naming=%s leaves %i named statement on the connection", async ([naming, expected], ctx) => {
    const handle = openPostgres(process.env.DATABASE_URL!, 1, naming);
    try {
      // Through a pooler (.ci/run runs this project through PgBouncer too) pg_prepared_statements shows another
      // server connection's; tests/integration/pooler.test.ts covers statements there.
      if ((await handle.detectPooler()).pooled) ctx.skip("DATABASE_URL is a pooler");
      expect(await handle.sql.rows({ name: "sundown-test", text: "SELECT $1::int AS n" }, [7])).toEqual([{ n: 7 }]);
      const named = await handle.sql.rows(
        {
          name: "sundown-test-list",
          text: "SELECT name FROM pg_prepared_statements WHERE name LIKE 'sundown-test:%'",
          planEachRun: true,
        },
        [],
      );
      expect(named).toHaveLength(expected);
    } finally {
      await handle.close();
    }
  });
});
