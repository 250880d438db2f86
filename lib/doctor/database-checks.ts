import { pendingMigrations } from "@/lib/db";
import { databaseExists, isMissingDatabase, quoteIdentifier } from "@/lib/db/create-database";
import { readMigrations } from "@/lib/db/migrate";
import type { Env } from "@/lib/env";
import { errorMessage, fail, pass, warn, type Check, type DoctorContext, type Verdict } from "./check";
import { measureSkew, SKEW_FAIL_MS, SKEW_WARN_MS, skewVerdict } from "./clock-skew";
import { describeDatabaseLocation, describeRoute } from "./describe";
import { embeddedDatabaseVerdict, embeddedMigrationsVerdict, EMBEDDED_BOUND_MS } from "./embedded-database";
import type { PostgresTarget } from "./targets";

// PostgreSQL as the server will meet it: reachable, direct or pooled, migrated, with a server-side statement
// timeout, and a clock that agrees with this one. The embedded database: embedded-database.ts.

const MIGRATE = "npx sundown db migrate";

// Two round trips at most per check (connecting, then the statement), each bounded by the pool itself; this
// is the backstop.
const databaseBound = ({ env, database }: DoctorContext) => ({
  ms: database.kind === "embedded" ? EMBEDDED_BOUND_MS : 2 * env.DATABASE_TIMEOUT_MS,
  waitsOn: database.kind === "embedded" ? "the running server" : "PostgreSQL at DATABASE_URL",
});

/** The reached database, or null when the database check has already reported it unreachable. */
async function reachedPostgres(context: DoctorContext): Promise<PostgresTarget | null> {
  const { database } = context;
  if (database.kind !== "postgres") return null;
  return database.reach().then(
    () => database,
    () => null,
  );
}

const errorCode = (error: unknown) => String((error as { code?: unknown } | null)?.code ?? "");

const isTimeout = (error: unknown) =>
  /timeout|timed out/i.test(errorMessage(error)) || errorCode(error) === "ETIMEDOUT";

const missingDatabase = (detail: string) =>
  fail(
    detail,
    `Run \`${MIGRATE}\` with this DATABASE_URL: it creates the database where the role may, or says what to run.`,
  );

/**
 * Why PostgreSQL could not be reached, and what to do, in the operator's terms rather than the driver's. A missing
 * database reads the same directly (3D000) and through PgBouncer (08P01 with the server's words).
 */
export function unreachableVerdict(error: unknown, env: Env): Verdict {
  const where = describeDatabaseLocation(env);
  const message = errorMessage(error);
  const code = errorCode(error);
  if (isMissingDatabase(error)) return missingDatabase(`${where}: ${message}`);
  // PgBouncer answers a refused login with its own code (08P01) but PostgreSQL's words.
  if (code === "28P01" || code === "28000" || /authentication failed/i.test(message)) {
    return fail(
      `${where} refused the login: ${message}`,
      "Check the user and password in DATABASE_URL, and that the server (pg_hba.conf, the provider's allow-list) admits this machine.",
    );
  }
  if (code === "ECONNREFUSED") {
    return fail(`${where}: connection refused`, "Start PostgreSQL, or correct the host and port in DATABASE_URL.");
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return fail(`${where}: the host name does not resolve`, "Correct the host in DATABASE_URL.");
  }
  if (isTimeout(error)) {
    return fail(
      `${where}: no answer within ${env.DATABASE_TIMEOUT_MS} ms (DATABASE_TIMEOUT_MS)`,
      "Check that PostgreSQL is up and that this machine may reach it (firewall, security group, the provider's " +
        "allow-list); a first connection across regions may need a larger DATABASE_TIMEOUT_MS.",
    );
  }
  return fail(`${where}: ${message}`, "Check DATABASE_URL and that the server it names accepts this machine.");
}

const database: Check = {
  name: "database",
  bound: databaseBound,
  async run({ env, database }) {
    if (database.kind === "embedded") return embeddedDatabaseVerdict(env);
    let reached;
    try {
      reached = await database.reach();
    } catch (error) {
      // A pooler may hold the login to a missing database instead of refusing it again (databaseExists says why):
      // the server itself, asked through a maintenance database, tells that silence from a hung one. Half the
      // timeout for it, so that a hung server still fails within the check's bound, with its own message.
      const asked = isTimeout(error) ? await databaseExists(env.DATABASE_URL!, env.DATABASE_TIMEOUT_MS / 2) : undefined;
      if (asked?.exists === false) {
        return missingDatabase(
          `${describeDatabaseLocation(env)}: database ${quoteIdentifier(asked.database)} does not exist (the server ` +
            "says so; a connection pooler held the login instead of answering)",
        );
      }
      return unreachableVerdict(error, env);
    }
    const route = await describeRoute(database.handle, env.DATABASE_PREPARED_STATEMENTS);
    const where = describeDatabaseLocation(env).replace("PostgreSQL", `PostgreSQL ${reached.version}`);
    return pass(`${where}, reached in ${reached.ms} ms, ${route}`);
  },
};

const migrations: Check = {
  name: "migrations",
  bound: databaseBound,
  async run(context) {
    if (context.database.kind === "embedded") return embeddedMigrationsVerdict(context.database.dataDir);
    const target = await reachedPostgres(context);
    if (!target) return null;
    const [all, pending] = await Promise.all([readMigrations(), pendingMigrations(target.handle.sql)]);
    if (pending.length === 0) return pass(`all ${all.length} applied`);
    return fail(
      `${pending.length} of ${all.length} not applied: ${pending.join(", ")}`,
      `Run \`${MIGRATE}\` with this DATABASE_URL (once per deploy, before the new version serves).`,
    );
  },
};

// current_setting() rather than SHOW: the same text, in a statement any reader sends.
const TIMEOUT_STATEMENT = {
  name: "doctor-statement-timeout",
  text: "SELECT current_setting('statement_timeout') AS timeout, current_user AS role",
  planEachRun: true,
};

const statementTimeout: Check = {
  name: "statement-timeout",
  bound: databaseBound,
  async run(context) {
    const target = await reachedPostgres(context);
    if (!target) return null;
    const [row] = await target.handle.sql.rows<{ timeout: string; role: string }>(TIMEOUT_STATEMENT, []);
    const { timeout, role } = row!;
    if (timeout !== "0") return pass(`the server stops a statement after ${timeout} (statement_timeout of ${role})`);
    const pooled = (await target.handle.detectPooler()).pooled;
    return warn(
      `statement_timeout is 0 for role ${role}: a runaway statement is stopped only by Sundown's cancel request after ` +
        `${context.env.DATABASE_TIMEOUT_MS} ms (DATABASE_TIMEOUT_MS)` +
        (pooled ? "; through a pooler, a role setting is the one way to give the server a timeout" : ""),
      `Run \`ALTER ROLE ${quoteIdentifier(role)} SET statement_timeout = '${context.env.DATABASE_TIMEOUT_MS}ms';\` ` +
        "as an administrator (new connections pick it up).",
    );
  },
};

// clock_timestamp() rather than now(): the moment the statement runs, not its transaction's start.
const CLOCK_STATEMENT = {
  name: "doctor-clock",
  text: "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms",
  planEachRun: true,
};

const databaseClock: Check = {
  name: "database-clock",
  bound: databaseBound,
  async run(context) {
    const target = await reachedPostgres(context);
    if (!target) return null;
    const skew = await measureSkew(async () => {
      const [row] = await target.handle.sql.rows<{ ms: number }>(CLOCK_STATEMENT, []);
      return row!.ms;
    });
    return skewVerdict(
      skew,
      "PostgreSQL's",
      "key expiry and roll overlaps are compared with this machine's clock, other times are stamped by the database's",
      { warnMs: SKEW_WARN_MS, failMs: SKEW_FAIL_MS },
    );
  },
};

export const DATABASE_CHECKS: Check[] = [database, migrations, statementTimeout, databaseClock];
