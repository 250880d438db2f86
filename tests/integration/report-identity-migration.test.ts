import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteConnection } from "@/lib/db";
import { applyMigrations, readMigrations, type SqlConnection } from "@/lib/db/migrate";
import { withDatabase } from "../helpers/seeded-postgres";

// The report identity migration on a database that already holds what retried imports made: the same report twice
// (and one stored three times, once with other content). It must apply, delete nothing, mark every repeat with the
// oldest of its group, and leave the unique index holding from then on. On the project's own kind of database: a
// fresh embedded one, or a fresh database on the PostgreSQL server of the run.

const IDENTITY_MIGRATION = "20261210000000_report_identity";

let conn: SqlConnection;
let close: () => Promise<void>;

beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pglite = new PGlite();
    conn = pgliteConnection(pglite);
    close = () => pglite.close();
    return;
  }
  const name = `identity_migration_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const client = new pg.Client({ connectionString: withDatabase(url, name) });
  await client.connect();
  conn = {
    exec: async (sql) => void (await client.query(sql)),
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
  };
  close = async () => {
    await client.end();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
}, 60_000);

afterAll(async () => {
  await close?.();
});

const report = (headline: string) =>
  JSON.stringify({ headline, kpi_status: [], shipped: [], silent: [], slipping: [], blockers: [] });

describe("the report identity migration", () => {
  it("keeps every report, marks each repeat with the oldest of its group, then holds the rule", async () => {
    const all = await readMigrations();
    const before = all.filter((m) => m.name < IDENTITY_MIGRATION);
    expect(before.length).toBeLessThan(all.length);
    await applyMigrations(conn, before);

    const [org] = await conn.query<{ id: string }>(
      `INSERT INTO organizations (slug, name) VALUES ('legacy', 'Legacy') RETURNING id`,
    );
    const [member] = await conn.query<{ id: string }>(
      `INSERT INTO members (organization_id, name, role) VALUES ($1, 'Mia', 'member') RETURNING id`,
      [org!.id],
    );
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const rows: [string, string, string | null, string, string, string][] = [
      // The org report of Monday, stored three times: twice the same, once corrected.
      [ids[0]!, "org", null, "2026-11-20T18:00:00Z", report("Monday"), "2026-11-20T18:05:00Z"],
      [ids[1]!, "org", null, "2026-11-20T18:00:00Z", report("Monday"), "2026-11-20T18:06:00Z"],
      [ids[2]!, "org", null, "2026-11-20T18:00:00Z", report("Monday (v2)"), "2026-11-21T09:00:00Z"],
      // Mia's report, twice; and a report of the same instant for the org scope, which is another report.
      [ids[3]!, "member", member!.id, "2026-11-20T17:00:00Z", report("Mia"), "2026-11-20T18:05:00Z"],
      [ids[4]!, "member", member!.id, "2026-11-20T17:00:00Z", report("Mia"), "2026-11-20T18:06:00Z"],
      [ids[5]!, "org", null, "2026-11-20T17:00:00Z", report("Monday, early"), "2026-11-20T18:05:00Z"],
    ];
    for (const [id, scope, target, at, content, createdAt] of rows) {
      await conn.query(
        `INSERT INTO reports (id, organization_id, scope, scope_target_id, generated_at, headline, content, created_at)
         VALUES ($1, $2, $3::report_scope, $4, $5, $6::jsonb->>'headline', $6::jsonb, $7)`,
        [id, org!.id, scope, target, at, content, createdAt],
      );
    }

    expect(await applyMigrations(conn, all)).toContain(IDENTITY_MIGRATION);

    const after = await conn.query<{ id: string; duplicate_of: string | null }>(
      `SELECT id::text, duplicate_of::text FROM reports ORDER BY created_at, id`,
    );
    expect(Object.fromEntries(after.map((r) => [r.id, r.duplicate_of]))).toEqual({
      [ids[0]!]: null,
      [ids[1]!]: ids[0],
      [ids[2]!]: ids[0],
      [ids[3]!]: null,
      [ids[4]!]: ids[3],
      [ids[5]!]: null,
    });

    const insertMonday = () =>
      conn.query(
        `INSERT INTO reports (organization_id, scope, generated_at, headline, content)
         VALUES ($1, 'org', '2026-11-20T18:00:00Z', 'Monday', $2::jsonb)`,
        [org!.id, report("Monday")],
      );
    await expect(insertMonday()).rejects.toThrow(/reports_identity_key/);
  });
});
