// Whether DATABASE_URL reaches PostgreSQL through a transaction-mode connection pooler (PgBouncer, Supavisor,
// Neon's pooler). Such a pooler hands each transaction to whichever server connection is free, so what one
// statement leaves on a connection (a named prepared statement, a session setting) is gone, or someone
// else's, at the next. Operators are told to use the pooled string and rarely know which kind they have, so
// it is detected, never required as configuration: from the URL where providers mark it, else by asking
// the server which port it listens on (a pooler listens on its own).

export interface PoolerVerdict {
  pooled: boolean;
  /** How it was decided, for the start banner and `sundown doctor`. */
  reason: string;
}

const DEFAULT_PORT = 5432;

// Known pooled endpoints: Prisma's own `pgbouncer=true` flag, Neon's `-pooler` host, Supabase's pooler
// host, and 6543 (Supavisor's and PgBouncer-on-Supabase's transaction-mode port).
const URL_HINTS: readonly { test: (url: URL) => boolean; reason: string }[] = [
  { test: (url) => url.searchParams.get("pgbouncer") === "true", reason: "pgbouncer=true in DATABASE_URL" },
  { test: (url) => /-pooler\./i.test(url.hostname), reason: "a -pooler host (Neon)" },
  { test: (url) => /(^|\.)pooler\.supabase\.com$/i.test(url.hostname), reason: "a pooler.supabase.com host" },
  { test: (url) => url.port === "6543", reason: "port 6543 (Supavisor and Supabase's transaction pooler)" },
];

/** What the connection string alone says; undefined when it says nothing either way. */
export function poolerFromUrl(connectionString: string): PoolerVerdict | undefined {
  const url = URL.canParse(connectionString) ? new URL(connectionString) : undefined;
  if (!url) return undefined;
  const hint = URL_HINTS.find((h) => h.test(url));
  return hint ? { pooled: true, reason: hint.reason } : undefined;
}

/** The port the client dials (the URL's, else PostgreSQL's default). */
export function dialedPort(connectionString: string): number {
  const url = URL.canParse(connectionString) ? new URL(connectionString) : undefined;
  return url?.port ? Number(url.port) : DEFAULT_PORT;
}

/**
 * The verdict from the server's own answer: a server listening on another port than the one dialled has
 * something in between (a pooler, or a port forward, which named statements then simply skip: they are
 * an optimisation, and the reads are correct either way).
 */
export function poolerFromServerPort(connectionString: string, serverPort: number): PoolerVerdict {
  const dialed = dialedPort(connectionString);
  return dialed === serverPort
    ? { pooled: false, reason: `the server listens on the port dialled (${dialed})` }
    : { pooled: true, reason: `port ${dialed} is dialled but the server listens on ${serverPort}` };
}

/** The SQL the probe runs: one row, the server's listening port. */
export const SERVER_PORT_QUERY = "SELECT current_setting('port')::int AS port";
