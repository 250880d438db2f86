// `npm run bench:briefing-statement`: what the briefing's statement (lib/data/briefing.ts) costs PostgreSQL, over the
// bench's 30 days of 100,000 reports, when it computes the briefing (no answer held, or the organization changed
// since) and when the server holds the answer for its token (lib/data/briefing-cache.ts): the backend's CPU time
// from /proc and the wall time per statement, on one connection, as the server sends it (named, so planned once).
//
//   DATABASE_URL=postgresql://… npm run bench:briefing-statement            seeds the bench organization, then removes it
//   DATABASE_URL=… npm run bench:briefing-statement -- --organization <id>  an organization seeded before (bench/seed.ts)
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { briefingRead } from "@/lib/data/briefing";
import { closeDb } from "@/lib/db";
import { seedPostgres } from "./seed";
import { median } from "./stats";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("bench:briefing-statement needs DATABASE_URL (PostgreSQL: the CPU time is read from /proc)");
const { values: options } = parseArgs({
  options: {
    organization: { type: "string" },
    rounds: { type: "string", default: "5" },
    days: { type: "string", default: "30" },
  },
});

let organizationId = options.organization;
let cleanUp = async () => {};
if (!organizationId) {
  console.log("seeding the benchmark organization (100,000 reports)…");
  const seeded = await seedPostgres(url);
  organizationId = seeded.fixture.organizationId;
  cleanUp = seeded.cleanUp;
}

const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query<{ pid: number; newest: Date }>(
  "SELECT pg_backend_pid() AS pid, (SELECT max(generated_at) FROM reports WHERE organization_id = $1) AS newest",
  [organizationId],
);
const { pid, newest } = rows[0]!;
/** The backend's user and system CPU time, ms (clock ticks of 10 ms). */
const backendCpu = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const until = newest.toISOString().slice(0, 10);
const since = new Date(Date.parse(until) - (Number(options.days) - 1) * 86_400_000).toISOString().slice(0, 10);
const request = briefingRead({ limit: 10, since: { day: since }, until: { day: until } });
const text = `SELECT ${request.sqlAt("$1::uuid", 2)} AS data`;
const args = request.args.slice(0, -1);
const run = (held: string[]) =>
  client.query<{ data: { data: { token: string; computed: { valid_until: number | null } | null } } }>({
    name: "briefing",
    text,
    values: [organizationId, ...args, held],
  });

const first = (await run([])).rows[0]!.data.data;
const held = [`${first.token}@${first.computed?.valid_until ?? ""}`];
const measured = {
  computed: [] as number[],
  computedWall: [] as number[],
  held: [] as number[],
  heldWall: [] as number[],
};
for (let round = 0; round < Number(options.rounds); round++) {
  for (const [kind, send, n] of [
    ["computed", [] as string[], 10],
    ["held", held, 200],
  ] as const) {
    const cpu = backendCpu();
    const started = performance.now();
    for (let i = 0; i < n; i++) await run([...send]);
    measured[kind].push((backendCpu() - cpu) / n);
    measured[`${kind}Wall`].push((performance.now() - started) / n);
  }
}
await client.end();
await closeDb();
await cleanUp();

const range = (values: number[]) =>
  `${median(values).toFixed(2)} ms (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
console.log(`briefing ${since}..${until}, ${options.rounds} rounds, median (min–max) per statement:`);
console.log(`  computed:    PostgreSQL CPU ${range(measured.computed)}, wall ${range(measured.computedWall)}`);
console.log(`  answer held: PostgreSQL CPU ${range(measured.held)}, wall ${range(measured.heldWall)}`);
