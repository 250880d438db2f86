// What keyed requests that are refused cost the database (issue 11 items 3 and 8), measured on a throwaway
// PostgreSQL database: pg_stat_database deltas (transactions, tuples, time executing statements) per batch of
// requests through the route handlers, in-process, on one pooled connection. A report, not a test.
//
//   SUNDOWN_TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test node --import tsx bench/admission-cost.ts
import pg from "pg";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { generateApiKey } from "@/lib/auth/api-key";
import { createApiKey } from "@/lib/data/api-keys";
import { findOrganization } from "@/lib/data/organizations";
import { openPostgres, installDbHandle } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { createSeededDatabase } from "../tests/helpers/seeded-postgres";

const REQUESTS = Number(process.env.REQUESTS ?? 100);
const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
if (!adminUrl) throw new Error("Set SUNDOWN_TEST_DATABASE_URL to a PostgreSQL server where databases may be created.");

interface DatabaseStats {
  xact_commit: number;
  tup_returned: number;
  tup_fetched: number;
  active_time: number;
}

const database = await createSeededDatabase(adminUrl, "sundown_admission_cost");
const name = new URL(database.url).pathname.slice(1);
process.env.DATABASE_URL = database.url;
process.env.SUNDOWN_RATE_LIMIT = "1";
resetEnvCache();
const handle = openPostgres(database.url, 1);
installDbHandle(handle);
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();

async function stats(): Promise<DatabaseStats> {
  // Each backend flushes its counters when idle, at most once a second unless told to: tell it, wait for it.
  await handle.sql.rows({ name: "flush", text: "SELECT pg_stat_force_next_flush()" }, []);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const { rows } = await admin.query<DatabaseStats>(
    "SELECT xact_commit::float8 AS xact_commit, tup_returned::float8 AS tup_returned, tup_fetched::float8 AS tup_fetched, active_time FROM pg_stat_database WHERE datname = $1",
    [name],
  );
  await admin.query("SELECT pg_stat_clear_snapshot()");
  return rows[0]!;
}

async function measure(label: string, request: () => Promise<Response>, expectedStatus: number) {
  const before = await stats();
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await request();
    if (response.status !== expectedStatus)
      throw new Error(`${label}: expected ${expectedStatus}, got ${response.status}`);
    await response.arrayBuffer();
  }
  const elapsed = performance.now() - started;
  const after = await stats();
  const per = (field: keyof DatabaseStats) => (after[field] - before[field]) / REQUESTS;
  // Give or take one: the flush statement is itself a transaction, counted whenever its backend next flushes.
  const transactions = after.xact_commit - before.xact_commit;
  console.log(
    [
      label.padEnd(34),
      `${String(transactions).padStart(5)} xacts`,
      `${(per("tup_returned") + per("tup_fetched")).toFixed(1).padStart(7)} tuples/req`,
      `${(per("active_time") * 1000).toFixed(0).padStart(6)} µs DB/req`,
      `${((REQUESTS / elapsed) * 1000).toFixed(0).padStart(6)} req/s`,
    ].join("  "),
  );
}

const organization = (await findOrganization("acme"))!;
const mint = (expiresAt?: Date) =>
  createApiKey({
    organizationId: organization.id,
    name: `cost-${Math.random()}`,
    scopes: ["reports:read", "team:read"],
    expiresAt,
    actor: { label: "bench" },
  });
const get = (key: string) =>
  listReports(new Request("http://localhost/api/v1/reports", { headers: { Authorization: `Bearer ${key}` } }));

try {
  console.log(
    `${REQUESTS} sequential GET /api/v1/reports per line, PostgreSQL ${(await admin.query("SHOW server_version")).rows[0].server_version}`,
  );
  const refused = (await mint()).key;
  if ((await get(refused)).status !== 200) throw new Error("the first request of a key should be admitted");
  await measure("answered 429 (warm key, limit 1)", () => get(refused), 429);

  const expiring = await mint(new Date(Date.now() + 1_500));
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await measure("expired key", () => get(expiring.key), 401);

  await measure("well-formed unknown keys", () => get(generateApiKey().secret), 401);
  await measure("malformed keys", () => get("sdn_sk_not-a-key"), 401);

  process.env.SUNDOWN_RATE_LIMIT = "10000000";
  resetEnvCache();
  const admitted = (await mint()).key;
  await get(admitted);
  await measure("admitted (warm key, limit 10^7)", () => get(admitted), 200);
} finally {
  await handle.close();
  await admin.end();
  await database.drop();
}
