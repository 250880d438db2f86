import pg from "pg";

// `sundown db migrate` on a DATABASE_URL whose database does not exist yet, as on a fresh server or a
// provider that hands out a server but not a database. The database is created from a maintenance
// database on the same server, where the role may (CREATEDB); where it may not, the error says exactly
// what to run instead, since only the operator can get a more privileged role.

/** PostgreSQL's "invalid_catalog_name": the database named at connection does not exist. */
const MISSING_DATABASE = "3D000";
const INSUFFICIENT_PRIVILEGE = "42501";
const DUPLICATE_DATABASE = "42P04";
// Every server has `postgres` unless someone dropped it; `template1` is always there (CREATE DATABASE copies it).
const MAINTENANCE_DATABASES = ["postgres", "template1"];

// PgBouncer passes the server's refusal on as a protocol error (08P01) with the server's message.
const POOLER_MISSING_DATABASE = /^database ".*" does not exist$/;

export function isMissingDatabase(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === MISSING_DATABASE) return true;
  return code === "08P01" && typeof message === "string" && POOLER_MISSING_DATABASE.test(message);
}

/** An identifier as PostgreSQL reads it back exactly: case kept, quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Thrown when the database is missing and cannot be created with this role; the message is for the operator. */
export class DatabaseNotCreatedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseNotCreatedError";
  }
}

/** The database and role a connection string names, as pg resolves them (no path: the user's name). */
function targetOf(url: string): { database: string; user: string } {
  const client = new pg.Client({ connectionString: url });
  const user = client.user ?? "";
  return { database: client.database ?? user, user };
}

function onDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** The statement that creates the database for this role, for the operator to run with more privileges. */
export function createDatabaseStatement(database: string, owner: string): string {
  return `CREATE DATABASE ${quoteIdentifier(database)} OWNER ${quoteIdentifier(owner)};`;
}

/**
 * Creates the database DATABASE_URL names, connected to a maintenance database on the same server with the
 * same role. Returns its name, or undefined if someone else created it meanwhile (a concurrent deploy).
 */
export async function createMissingDatabase(url: string): Promise<string | undefined> {
  const { database, user } = targetOf(url);
  const refused = (why: string) =>
    new DatabaseNotCreatedError(
      `The database ${quoteIdentifier(database)} does not exist, and role ${quoteIdentifier(user)} cannot create it (${why}).\n` +
        "Create it as a role with CREATEDB (or in your provider's console), then run `npx sundown db migrate` again:\n" +
        `  ${createDatabaseStatement(database, user)}`,
    );
  const admin = await connectToMaintenanceDatabase(url, refused);
  try {
    await admin.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
    return database;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === DUPLICATE_DATABASE) return undefined;
    if (code === INSUFFICIENT_PRIVILEGE) throw refused((error as Error).message);
    throw error;
  } finally {
    await admin.end();
  }
}

/**
 * Whether the database DATABASE_URL names exists, asked from a maintenance database on the same server (through the
 * same pooler, if any) with the same role; undefined when that cannot be asked within `timeoutMs` in all. For the
 * doctor: a transaction pooler answers a login to a missing database with the server's refusal once, then holds
 * every login to it until it tries the server again (PgBouncer's server_login_retry, 15 s by default), so the
 * refusal may never be seen.
 */
export async function databaseExists(
  url: string,
  timeoutMs: number,
): Promise<{ database: string; exists: boolean } | undefined> {
  const { database } = targetOf(url);
  const deadline = performance.now() + timeoutMs;
  for (const maintenance of MAINTENANCE_DATABASES) {
    const left = Math.floor(deadline - performance.now());
    if (maintenance === database || left <= 0) continue;
    const client = new pg.Client({
      connectionString: onDatabase(url, maintenance),
      connectionTimeoutMillis: left,
      query_timeout: left,
    } as pg.ClientConfig);
    try {
      await client.connect();
      const { rows } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
      return { database, exists: rows.length > 0 };
    } catch {
      // This maintenance database cannot be asked (missing, refused, too slow): the next one, else no answer.
    } finally {
      await client.end().catch(() => {});
    }
  }
  return undefined;
}

async function connectToMaintenanceDatabase(
  url: string,
  refused: (why: string) => DatabaseNotCreatedError,
): Promise<pg.Client> {
  const failures: string[] = [];
  for (const maintenance of MAINTENANCE_DATABASES) {
    const client = new pg.Client({ connectionString: onDatabase(url, maintenance), connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      // Only a refusal to this database moves on to the next; anything else (the server gone) is the answer.
      const code = (error as { code?: unknown }).code;
      if (code !== MISSING_DATABASE && code !== INSUFFICIENT_PRIVILEGE && code !== "28000") throw error;
      failures.push(`${maintenance}: ${(error as Error).message}`);
    }
  }
  throw refused(`it may not connect to a maintenance database to create it from: ${failures.join("; ")}`);
}
