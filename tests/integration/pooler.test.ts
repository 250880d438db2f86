import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres } from "@/lib/db";
import { readMigrations } from "@/lib/db/migrate";
import type { Statement } from "@/lib/db/sql";
import { withEnv } from "../helpers/env";
import { createSeededDatabase, withDatabase, type SeededDatabase } from "../helpers/seeded-postgres";

// The database layer through a transaction-mode pooler with its stock settings, as a managed PostgreSQL's
// pooled connection string gives it: SUNDOWN_TEST_POOLER_URL is a PgBouncer (pool_mode = transaction) in
// front of the server at SUNDOWN_TEST_DATABASE_URL (.ci/run starts one; under CI it must be set).

const poolerUrl = process.env.SUNDOWN_TEST_POOLER_URL;
const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
if (process.env.CI === "true" && process.env.DATABASE_URL && !poolerUrl) {
  throw new Error("CI=true requires SUNDOWN_TEST_POOLER_URL: the pooler tests must run in CI.");
}

describe.runIf(process.env.DATABASE_URL && poolerUrl)("PostgreSQL through a transaction-mode pooler", () => {
  let database: SeededDatabase;
  let pooled: string;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createSeededDatabase(adminUrl!, "sundown_pooler");
    pooled = withDatabase(poolerUrl!, database.name);
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  it("serves with the pooler's stock settings: no startup parameter it refuses", async () => {
    const handle = openPostgres(pooled, 2);
    try {
      expect(await handle.sql.rows({ name: "one", text: "SELECT 1 AS one" }, [])).toEqual([{ one: 1 }]);
      expect(await handle.client.organization.count()).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
  });

  it("detects the pooler from the server's port and sends statements unnamed", async () => {
    const handle = openPostgres(pooled, 2);
    try {
      expect(handle.sql.named).toBe(true);
      const verdict = await handle.detectPooler();
      expect(verdict).toEqual({ pooled: true, reason: expect.stringMatching(/is dialled but the server listens on/) });
      expect(handle.sql.named).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it("with named statements forced on, falls back at the first lost one and no read fails", async () => {
    const handle = openPostgres(pooled, 4, "named");
    const statements: Statement[] = [1, 2, 3].map((n) => ({
      name: `pooled-read-${n}`,
      text: `SELECT $1::int + ${n} AS n`,
    }));
    try {
      let reads = 0;
      // Several clients take turns on the pooler's server connections: a connection's statements are soon
      // asked for on one that never prepared them, or prepared on one that already has them.
      while (handle.sql.named && reads < 5_000) {
        const batch = Array.from({ length: 40 }, (_, i) => ({ statement: statements[i % 3]!, value: reads + i }));
        const results = await Promise.all(batch.map(({ statement, value }) => handle.sql.rows(statement, [value])));
        results.forEach((rows, i) => {
          const { statement, value } = batch[i]!;
          expect(rows).toEqual([{ n: value + statements.indexOf(statement) + 1 }]);
        });
        reads += batch.length;
      }
      expect(handle.sql.named).toBe(false);
      // And it keeps serving unnamed.
      expect(await handle.sql.rows(statements[0]!, [41])).toEqual([{ n: 42 }]);
    } finally {
      await handle.close();
    }
  });

  it.each([
    ["directly", () => database.url],
    ["through the pooler", () => pooled],
  ])("a statement past DATABASE_TIMEOUT_MS is cancelled on the server %s", async (_, url) => {
    const marker = `sundown-cancel-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const handle = await withEnv({ DATABASE_TIMEOUT_MS: "500" }, async () => openPostgres(url(), 4));
    try {
      const sleep = { name: "sleep", text: `SELECT pg_sleep(30) /* ${marker} */`, planEachRun: true };
      const outcomes = await Promise.allSettled([1, 2, 3, 4].map(() => handle.sql.rows(sleep, [])));
      for (const outcome of outcomes)
        expect(outcome).toMatchObject({ status: "rejected", reason: { message: /timeout/i } });
      // Without the cancel request the backend would sleep on for 30 s: nothing reads its socket.
      const running = () =>
        admin
          .query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1",
            [`%${marker}%`],
          )
          .then((r) => r.rows[0]!.n);
      await expect.poll(running, { timeout: 10_000, interval: 200 }).toBe(0);
      // The cancels did no harm on the way (PgBouncer 1.18 dies of a cancel connection closed too early).
      expect(await handle.sql.rows({ name: "after", text: "SELECT 1 AS one" }, [])).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });

  it("migrates through the pooler, twice at once, and again afterwards without waiting on a lost lock", async () => {
    const name = `sundown_pooled_migrate_${Date.now()}_${process.pid}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    try {
      const url = withDatabase(poolerUrl!, name);
      const [first, second] = await Promise.all([migratePostgres(url), migratePostgres(url)]);
      const all = (await readMigrations()).map((m) => m.name);
      expect([...first, ...second].sort()).toEqual(all);
      // A session advisory lock taken through the pooler would still be held on some server connection.
      expect(await migratePostgres(url)).toEqual([]);
      const check = new pg.Client({ connectionString: withDatabase(adminUrl!, name) });
      await check.connect();
      try {
        const { rows } = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
        expect(rows[0]!.n).toBe(all.length);
        const locks = await check.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory'");
        expect(locks.rowCount).toBe(0);
      } finally {
        await check.end();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
