import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";

// Secret columns are omitted from every result unless a query selects them by name,
// so a forgotten `select` can never send a key hash or a password hash anywhere.
const omit = {
  apiKey: { hashedKey: true },
  user: { passwordHash: true },
} as const;

export type Db = PrismaClient<never, typeof omit>;

export interface PostgresOptions {
  url: string;
  poolMax: number;
}

// Bounded waits: a database that is down must turn into a quick 503, not a hung request.
const CONNECT_TIMEOUT_MS = 3_000;
const STATEMENT_TIMEOUT_MS = 10_000;

/** One pool per process, shared by Prisma's adapter and the hot-path reads (lib/db/sql.ts). */
export function createPostgresClient({ url, poolMax }: PostgresOptions): { client: Db; pool: Pool } {
  const pool = new Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 1_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server drops (restart, failover) must not crash the process; the next
  // query fails with a connection error, which the API answers as 503.
  pool.on("error", (error) => log("warn", "idle database connection failed", { error: error.message }));
  const adapter = new PrismaPg(pool);
  return { client: new PrismaClient({ adapter, omit }) as Db, pool };
}

export async function createPgliteClient(pglite: PGlite): Promise<Db> {
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  return new PrismaClient({ adapter: new PrismaPGlite(pglite), omit }) as Db;
}
