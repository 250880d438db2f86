import { openEmbedded } from "@/lib/db";
import { seedDemoOnFirstStart } from "@/lib/demo/first-start";

// Seeds an embedded database (the directory given) for e2e/key-usage.spec.ts, before a server opens it: acme gets
// "busy-agent", with a month of known traffic (the spec holds the numbers), and 199 more keys with a year of usage
// each. Run with `node --import tsx`.

const BUSY_KEY = "busy-agent";
const OTHER_KEYS = 199;

async function main() {
  const [dataDir] = process.argv.slice(2);
  const handle = await openEmbedded(dataDir!, "cli");
  await seedDemoOnFirstStart(handle);
  const run = (name: string, text: string, values: unknown[] = []) => handle.sql.rows({ name, text }, values);
  const today = new Date().toISOString().slice(0, 10);
  await run(
    "seed-keys",
    `INSERT INTO api_keys (organization_id, name, hashed_key, hint, scopes)
     SELECT o.id, k.name, md5(random()::text), 'sdn_sk_seed…' || lpad(k.n::text, 4, '0'), ARRAY['reports:read']
     FROM organizations o,
       LATERAL (SELECT $1::text AS name, 0 AS n UNION ALL SELECT 'load-' || g, g FROM generate_series(1, $2::int) g) k
     WHERE o.slug = 'acme'`,
    [BUSY_KEY, OTHER_KEYS],
  );
  // A year for every key, the busy key's last 30 days overwritten with known numbers (i = 0 is the oldest day).
  await run(
    "seed-year",
    `INSERT INTO api_key_usage (api_key_id, organization_id, day, successes, client_errors, rate_limited)
     SELECT k.id, k.organization_id, d::date, 500 + (extract(doy FROM d)::int % 50), 1, 1
     FROM api_keys k, generate_series($1::date - 364, $1::date, interval '1 day') d
     WHERE k.name = $2 OR k.name LIKE 'load-%'`,
    [today, BUSY_KEY],
  );
  await run(
    "seed-month",
    `UPDATE api_key_usage u SET successes = 40 + i, client_errors = CASE WHEN i % 5 = 0 THEN 3 ELSE 0 END,
       rate_limited = CASE WHEN i = 20 THEN 12 ELSE 0 END
     FROM api_keys k, generate_series(0, 29) i
     WHERE k.name = $2 AND u.api_key_id = k.id AND u.day = $1::date - 29 + i`,
    [today, BUSY_KEY],
  );
  await handle.close();
}

void main();
