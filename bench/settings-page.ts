// What the API-keys settings page costs the server with 200 keys, a year of key activity and a year of usage
// (issue 15): the page's three reads (keys, activity, usage) and the rendering of the keys and activity sections,
// timed in-process.
// A report, not a test.
//
//   node --import tsx bench/settings-page.ts                 on a fresh embedded database (in memory)
//   DATABASE_URL=postgresql://… node --import tsx bench/settings-page.ts      on PostgreSQL (migrated first)
import { performance } from "node:perf_hooks";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AuditTrail } from "@/components/api-keys/audit-trail";
import { KeysTable } from "@/components/api-keys/keys-table";
import { listActivity } from "@/lib/data/activity";
import { API_KEY_SUBJECT, listApiKeys } from "@/lib/data/api-keys";
import { listKeyUsage } from "@/lib/data/key-usage";
import { closeDb, getSql, installDbHandle, migratePostgres, openEmbedded, openPostgres } from "@/lib/db";
import { median } from "./stats";
import { PAGE_BENCH_MIX, seedKeyHistory } from "./key-history-seed";

const RUNS = Number(process.env.RUNS ?? 50);
const url = process.env.DATABASE_URL;
if (url) {
  await migratePostgres(url);
  installDbHandle(openPostgres(url, 2));
} else {
  installDbHandle(await openEmbedded("memory://", "cli"));
}

const noAction = async () => ({ status: "idle" as const });
const { organizationId } = await seedKeyHistory(PAGE_BENCH_MIX);
// A year of usage for every key (73,000 key-days): the page reads only the last 30 days, whatever the history.
await (
  await getSql()
).rows(
  {
    name: "bench-usage-year",
    text: `INSERT INTO api_key_usage (api_key_id, organization_id, day, successes, client_errors, rate_limited)
      SELECT k.id, k.organization_id, d::date, 500 + (extract(doy FROM d)::int % 50), 1, 1
      FROM api_keys k, generate_series(current_date - 364, current_date, interval '1 day') d
      WHERE k.organization_id = $1`,
  },
  [organizationId],
);

const reads: number[] = [];
const renders: number[] = [];
let bytes = 0;
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const [keys, lines, usageOf] = await Promise.all([
    listApiKeys(organizationId),
    listActivity(organizationId, [API_KEY_SUBJECT]),
    listKeyUsage(organizationId),
  ]);
  const read = performance.now();
  const html =
    renderToStaticMarkup(createElement(KeysTable, { keys, usageOf, revokeAction: noAction, rollAction: noAction })) +
    renderToStaticMarkup(createElement(AuditTrail, { lines }));
  renders.push(performance.now() - read);
  reads.push(read - started);
  bytes = Buffer.byteLength(html);
}
await closeDb();

const p95 = (values: number[]) => values.toSorted((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(`settings page, ${PAGE_BENCH_MIX.keys} keys, ${url ? "PostgreSQL" : "embedded"}, ${RUNS} runs`);
console.log(`  reads (keys + activity + usage)  median ${ms(median(reads))}  p95 ${ms(p95(reads))}`);
console.log(`  render (keys + activity)          median ${ms(median(renders))}  p95 ${ms(p95(renders))}`);
console.log(`  HTML of the two sections ${(bytes / 1024).toFixed(0)} KiB`);
