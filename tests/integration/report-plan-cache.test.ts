import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/auth/api-key";
import { statementWithRead } from "@/lib/data/key-lookup";
import { reportPage } from "@/lib/data/reports";
import { openPostgres, type DbHandle } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import { createSeededDatabase, type SeededDatabase } from "../helpers/seeded-postgres";

// Issue 25: the keyed report list's statement is planned once per connection, not on every execution. PostgreSQL
// plans a named statement's first five executions for their values, then keeps one generic plan if it costs no more.
// With the page size sent as a parameter (`LIMIT $3::int + 1`) the generic plan was priced for an unknown limit and
// never won, so every request paid for planning again (custom_plans=550, generic_plans=0 after
// 550 reads; PostgreSQL CPU per read 0.40-0.45 ms, against 0.16-0.18 ms since: npm run bench:statements).
// On a database of its own holding the demo data and 5,000 reports more, and one direct connection, where the API names its statements
// (behind a pooler it sends them unnamed and plans are never kept).

const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;

describe.runIf(process.env.DATABASE_URL && adminUrl)("the keyed report list's prepared statement on PostgreSQL", () => {
  let database: SeededDatabase;
  let handle: DbHandle;
  let hashedKey: string;

  beforeAll(async () => {
    database = await createSeededDatabase(adminUrl!, "sundown_plans");
    handle = openPostgres(database.url, 1, "named");
    const acme = await handle.client.organization.findUniqueOrThrow({ where: { slug: "acme" }, select: { id: true } });
    // A history of some size, as deployments hold: a generic plan for an unknown LIMIT is priced at a tenth of the
    // rows, which loses to a plan made for LIMIT 15 once there are more than a few hundred reports.
    await handle.client.$executeRaw`
      INSERT INTO reports (organization_id, scope, generated_at, headline, content, search_text)
      SELECT ${acme.id}::uuid, 'org', now() - i * interval '1 hour', 'Day ' || i,
             jsonb_build_object('headline', 'Day ' || i, 'kpi_status', '[]'::jsonb, 'shipped', '[]'::jsonb,
                                'silent', '[]'::jsonb, 'slipping', '[]'::jsonb, 'blockers', '[]'::jsonb),
             'Day ' || i
      FROM generate_series(1, 5000) AS i`;
    await handle.client.$executeRaw`ANALYZE reports`;
    const key = generateApiKey();
    hashedKey = key.hashedKey;
    await handle.client.apiKey.create({
      data: {
        organizationId: acme.id,
        name: "plans",
        hashedKey,
        hint: key.hint,
        scopes: ["reports:read"],
        expiresAt: new Date(Date.now() + 3_600_000),
      },
      select: { id: true },
    });
  });

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  async function plansAfter(executions: number, read: ReturnType<typeof reportPage>) {
    // The keyed request's statement: the key's lookup and the page in one (lib/data/key-lookup.ts).
    const statement: Statement = { ...statementWithRead(read), name: `plan-cache:${read.name}` };
    for (let i = 0; i < executions; i++) await handle.sql.rows(statement, [hashedKey, new Date(), ...read.args]);
    const [plans] = await handle.sql.rows<{ generic_plans: string; custom_plans: string }>(
      {
        name: "plan-cache:plans",
        // The driver's name is the statement's with a digest of its text (lib/db/sql.ts preparedName).
        text: "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE $1 || ':%'",
        planEachRun: true,
      },
      [statement.name],
    );
    return { generic: Number(plans!.generic_plans), custom: Number(plans!.custom_plans) };
  }

  it.for([
    ["the first page", () => reportPage({ limit: 14 })],
    [
      "a page of 50 for one week",
      () => reportPage({ limit: 50, filters: { since: { day: "2026-11-01" }, until: { day: "2026-11-07" } } }),
    ],
  ] as const)("%s: planned for its values five times, then from the one generic plan", async ([, read]) => {
    expect(await plansAfter(12, read())).toEqual({ custom: 5, generic: 7 });
  });
});
