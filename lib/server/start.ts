import { EnvError, getEnv, publicUrl, signInUrl, type Env } from "@/lib/env";
import { EmbeddedDbBusyError, getDbHandle, pendingMigrations, type DbHandle } from "@/lib/db";
import type { SqlReader } from "@/lib/db/sql";
import { demoWanted, seedDemoOnFirstStart } from "@/lib/demo/first-start";
import { log } from "@/lib/log";

// What start-up does beyond opening the database runs after it, and its modules (the webhook delivery, the search
// backfill, the banner's descriptions) load then too: the first request waits for none of it (bench: cold start).

const registry = globalThis as typeof globalThis & { __sundownStarted?: Promise<void> };

/** Server start-up, once per process. */
export function startServer(): Promise<void> {
  registry.__sundownStarted ??= start();
  return registry.__sundownStarted;
}

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

async function start(): Promise<void> {
  let env;
  try {
    env = getEnv();
    // Throws in production without a configured URL: better no server than sign-in links a client can redirect.
    signInUrl(env);
  } catch (error) {
    if (error instanceof EnvError) fail(error.message);
    throw error;
  }
  let handle;
  try {
    handle = await getDbHandle();
  } catch (error) {
    if (error instanceof EmbeddedDbBusyError) {
      fail(
        `Sundown: the embedded database in ${env.dataDir} is in use by process ${error.holder.pid}.\n` +
          "Stop that process, or give this one its own SUNDOWN_DATA_DIR.",
      );
    }
    throw error;
  }
  // `npm run dev` (next dev) seeds the demo into a new embedded database; `npm start` only with SUNDOWN_DEMO=1.
  if (demoWanted(handle, { demo: env.SUNDOWN_DEMO, underNextDev: env.NODE_ENV === "development" })) {
    await seedDemoOnFirstStart(handle);
  }
  if (handle.kind === "embedded" && handle.dataDir && !handle.dataDir.startsWith("memory://")) {
    const { startCommandServer } = await import("@/lib/cli/command-server");
    await startCommandServer(handle);
  }
  if (handle.kind === "postgres") {
    // Not awaited: the check only logs, and the first request (often the public /api/v1, which needs no
    // database) should not wait for a first connection to the database (a TLS handshake on managed hosts).
    void warnOnPendingMigrations(handle.sql);
  }
  // Not awaited either: reports stored before search existed become searchable shortly after start.
  // The embedded database has no autovacuum: its statistics are gathered here (lib/data/report-statistics.ts).
  void prepareStoredReports(handle);
  // A long-lived server delivers webhooks itself; a serverless platform has no background (lib/webhooks/loop.ts).
  if (!env.serverless) void import("@/lib/webhooks/loop").then(({ startDeliveryLoop }) => startDeliveryLoop());
  // And generates the reports of each organization's day at its cutoff (lib/generation/loop.ts); serverless: cron.
  if (!env.serverless) void import("@/lib/generation/loop").then(({ startGenerationLoop }) => startGenerationLoop());
  if (!env.REDIS_URL && !env.UPSTASH_REDIS_REST_URL && env.NODE_ENV === "production") {
    log("warn", "no shared rate-limit store configured: the per-key limit holds per instance only");
  }
  // Whether PostgreSQL is behind a pooler takes a round trip: the server serves meanwhile, and the banner
  // follows the answer (within DATABASE_TIMEOUT_MS, since every query is bounded by it).
  void Promise.all([describeDatabase(handle, env), import("@/lib/demo/presence").then((p) => p.firstSteps())]).then(
    ([lines, steps]) => printBanner(steps, lines, env),
  );
}

async function prepareStoredReports(handle: DbHandle): Promise<void> {
  try {
    const { fillMissingSearchText } = await import("@/lib/data/report-search-backfill");
    const filled = await fillMissingSearchText();
    if (filled > 0) log("info", "filled in the search text of stored reports", { reports: filled });
    if (handle.kind === "embedded") await (await import("@/lib/data/report-statistics")).refreshReportStatistics();
  } catch (error) {
    log("warn", "could not prepare stored reports for search", { error: (error as Error).message });
  }
}

/**
 * The banner's store lines: the database (where it is, and for PostgreSQL whether directly or through a pooler)
 * and the rate-limit store.
 */
async function describeDatabase(handle: DbHandle, env: Env): Promise<{ database: string; store: string }> {
  const { describeDatabaseLocation, describeRoute, describeStore } = await import("@/lib/doctor/describe");
  const where = describeDatabaseLocation(env);
  const store = describeStore(env);
  if (handle.kind === "embedded") return { database: where, store };
  try {
    return { database: `${where}, ${await describeRoute(handle, env.DATABASE_PREPARED_STATEMENTS)}`, store };
  } catch (error) {
    const { errorMessage } = await import("@/lib/doctor/check");
    return { database: `${where}, not reached yet (${errorMessage(error)})`, store };
  }
}

async function warnOnPendingMigrations(sql: SqlReader): Promise<void> {
  const pending = await pendingMigrations(sql).catch((): string[] => []);
  if (pending.length > 0) {
    log("error", "database has pending migrations; run `npx sundown db migrate`", { pending });
  }
}

async function printBanner(
  steps: import("@/lib/demo/presence").FirstSteps,
  { database, store }: { database: string; store: string },
  env: Env,
): Promise<void> {
  const { CREATE_FIRST_ORGANIZATION } = await import("@/lib/demo/presence");
  const url = publicUrl(env);
  const lines = ["", `  Sundown is running at ${url}`, `  Database: ${database}`, `  Rate-limit store: ${store}`];
  if (steps === "create-organization") {
    lines.push(
      "  No organization yet. Create the first, with its founder's one-time link to set a password:",
      `    ${CREATE_FIRST_ORGANIZATION}`,
      ...(env.SUNDOWN_SETUP_TOKEN ? [`  (or open ${url}/setup with SUNDOWN_SETUP_TOKEN)`] : []),
      "",
    );
    console.log(lines.join("\n"));
    return;
  }
  if (steps === "demo") {
    lines.push(
      `  Demo sign-ins: founder@acme.example, lead@acme.example, member@acme.example (and @globex.example)`,
      `  Demo password: sundown-demo`,
      `  Mint an API key: npx sundown keys create --org acme --name my-agent --scopes reports:read,team:read`,
    );
  } else {
    lines.push(
      `  Mint an API key: npx sundown keys create --org <slug> --name my-agent --scopes reports:read,team:read`,
    );
  }
  lines.push(`  Try it:          curl -H "Authorization: Bearer <key>" ${url}/api/v1/me`, "");
  console.log(lines.join("\n"));
}
