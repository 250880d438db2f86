// `npm run load-check`: the production server under a mixed load on the database it is given, passing only
// with every request answered 2xx. CI runs it twice, with DATABASE_URL direct and through a transaction-mode
// pooler (issue 20), so migrating, seeding and serving all go through the URL as given.
//
//   npm run load-check -- --seconds 20 --connections 50
//
// Needs DATABASE_URL (REDIS_URL is passed on when set) and a build in $SUNDOWN_DIST_DIR (default .next).
// Seeds a fresh organization, starts `next start` as `npm start` does, runs autocannon over the mix of
// bench/load-mix.ts, prints one table and removes the organization. Exits 0 on a pass, 1 on a failure
// (bench/load-check-verdict.ts), 2 when it cannot run.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDb, getDbHandle, installDbHandle, migratePostgres, openPostgres } from "@/lib/db";
import { describeStatuses, judgeLoadCheck, type LoadCheckVerdict } from "./load-check-verdict";
import { prepareLoadMix } from "./load-mix";
import type { LoadResult } from "./load-worker";
import {
  removeBenchOrganization,
  seedBenchOrganization,
  withConnection,
  type BenchFixture,
  type BenchSize,
} from "./seed";
import { buildExists, ROOT, startBenchServer, type RunningServer } from "./server";
import { startLoadWorker, type LoadWorker } from "./worker-client";

const SERVER_LOG = path.join(ROOT, "bench/out/load-check-server.log");
/** As the bench: every request counted by the limiter, none refused (the env's upper bound). */
const UNLIMITED = "10000000";
/**
 * A tenth of the bench's organization: the bench's 100,000 reports take about 18 s to write on two cores, and
 * this check is about every answer being right under load, which 10,000 reports over two years prove as well:
 * full pages for every filter, and a cursor 200 pages deep.
 */
const CHECK_SIZE: BenchSize = { members: 40, reports: 10_000, days: 730, keys: 16 };

/** A reason the check cannot run at all: exit 2, as opposed to a check that ran and failed. */
class CannotRun extends Error {}

interface Settings {
  seconds: number;
  connections: number;
  databaseUrl: string;
  distDir: string;
}

function readSettings(argv: string[]): Settings {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { seconds: { type: "string", default: "20" }, connections: { type: "string", default: "50" } },
    }));
  } catch (error) {
    throw new CannotRun(`${(error as Error).message}; usage: npm run load-check -- --seconds 20 --connections 50`);
  }
  const positive = (name: string, text: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0) throw new CannotRun(`--${name} must be a positive whole number`);
    return n;
  };
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new CannotRun("DATABASE_URL is not set: the load check runs on PostgreSQL only");
  const distDir = process.env.SUNDOWN_DIST_DIR ?? ".next";
  if (!buildExists(distDir)) {
    throw new CannotRun(`no production build in ${distDir}: run \`SUNDOWN_DIST_DIR=${distDir} npx next build\` first`);
  }
  return {
    seconds: positive("seconds", values.seconds),
    connections: positive("connections", values.connections),
    databaseUrl,
    distDir,
  };
}

function progress(message: string): void {
  process.stderr.write(`[load-check] ${message}\n`);
}

/** Migrates and seeds through `url` itself, with the client code the server runs. */
async function seedOrganization(url: string): Promise<{ fixture: BenchFixture; cleanUp(): Promise<void> }> {
  await migratePostgres(url);
  installDbHandle(openPostgres(url, 2));
  let fixture: BenchFixture;
  try {
    fixture = await withConnection(url, (execute) => seedBenchOrganization(CHECK_SIZE, execute));
  } catch (error) {
    await closeDb();
    throw error;
  }
  return {
    fixture,
    cleanUp: () => removeBenchOrganization(url, fixture.organizationId),
  };
}

/** The server's start banner line about its database, if it printed one. */
function bannerDatabase(log: string): string | undefined {
  return /^\s*Database: (.+)$/m.exec(log)?.[1]?.trim();
}

function readServerLog(): string {
  return existsSync(SERVER_LOG) ? readFileSync(SERVER_LOG, "utf8") : "";
}

/** The server's own complaints: its warn and error log lines and Next's `⨯` lines. */
function complaints(log: string): string[] {
  return log.split("\n").filter((line) => /"level":"(warn|error)"|^\s*⨯/.test(line));
}

/** Where to look first when the check fails: a 5xx leaves its cause in the server's log. */
function printComplaints(lines: string[]): void {
  if (lines.length === 0) return;
  console.log([`The server's warn/error lines (first 20 of ${lines.length}):`, ...lines.slice(0, 20)].join("\n"));
}

function renderTable(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join("\n");
}

interface Report {
  settings: Settings;
  database: string;
  mix: string[];
  result: LoadResult;
  verdict: LoadCheckVerdict;
  serverComplaints: string[];
}

function printReport({ settings, database, mix, result, verdict, serverComplaints }: Report): void {
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "n/a");
  console.log(
    [
      `Load check: ${settings.seconds} s at ${settings.connections} connections over ${mix.length} kinds of request`,
      renderTable([
        ["database", database],
        ["requests", String(result.requests)],
        ["req/s", (result.requests / result.durationSeconds).toFixed(0)],
        ["statuses", describeStatuses(result.statuses) || "none"],
        ["errors", `${result.errors} (${result.timeouts} timeouts)`],
        ["p50 / p99", `${ms(result.p50Ms)} / ${ms(result.p99Ms)}`],
        ["server log", `${path.relative(process.cwd(), SERVER_LOG)} (${serverComplaints.length} warn/error lines)`],
        ["verdict", verdict.passed ? "PASS" : "FAIL"],
      ]),
      `Mix: ${mix.join("; ")}`,
    ].join("\n"),
  );
  if (verdict.passed) return;
  console.log(verdict.failures.map((f) => `FAIL: ${f}`).join("\n"));
  printComplaints(serverComplaints);
}

async function check(settings: Settings): Promise<boolean> {
  rmSync(SERVER_LOG, { force: true });
  progress("migrating and seeding an organization through DATABASE_URL…");
  const database = await seedOrganization(settings.databaseUrl);
  let server: RunningServer | undefined;
  let worker: LoadWorker | undefined;
  try {
    const pooler = await (await getDbHandle()).detectPooler();
    progress(`seeded ${CHECK_SIZE.reports} reports in ${database.fixture.seedSeconds.toFixed(1)} s`);
    server = await startBenchServer({
      distDir: settings.distDir,
      env: {
        DATABASE_URL: settings.databaseUrl,
        SUNDOWN_RATE_LIMIT: UNLIMITED,
        SUNDOWN_ADDRESS_RATE_LIMIT: UNLIMITED,
        SUNDOWN_LOG_LEVEL: "warn",
      },
      logFile: SERVER_LOG,
    });
    progress(`server at ${server.url} (started in ${server.coldStartMs.toFixed(0)} ms); preparing the mix…`);
    const mix = await prepareLoadMix(server.url, database.fixture);
    worker = startLoadWorker();
    progress(`${settings.seconds} s at ${settings.connections} connections…`);
    const result = await worker.run({
      url: server.url,
      connections: settings.connections,
      durationSeconds: settings.seconds,
      requests: mix.requests,
    });
    await server.stop();
    server = undefined;
    const log = readServerLog();
    const verdict = judgeLoadCheck(result);
    // What lib/db detects on the same URL, the detection the server runs too.
    const detected = `${pooler.pooled ? "pooled" : "direct"}: ${pooler.reason}`;
    printReport({
      settings,
      database: `${bannerDatabase(log) ?? "(no banner line)"}; ${detected}`,
      mix: mix.labels,
      result,
      verdict,
      serverComplaints: complaints(log),
    });
    return verdict.passed;
  } finally {
    await worker?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await database.cleanUp().catch((error: Error) => progress(`clean-up failed: ${error.message}`));
  }
}

async function main(): Promise<number> {
  try {
    return (await check(readSettings(process.argv.slice(2)))) ? 0 : 1;
  } catch (error) {
    if (error instanceof CannotRun) {
      console.error(`load-check: ${error.message}`);
      return 2;
    }
    console.error(`load-check: FAIL: ${(error as Error).message}`);
    printComplaints(complaints(readServerLog()));
    return 1;
  }
}

// Exits explicitly, as the bench does: the exit code is the verdict, whatever handle is still open.
void main().then((code) => process.exit(code));
