import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { BoundedPool } from "./bounded-pool";

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
  /** How long a query may wait on the database in all (DATABASE_TIMEOUT_MS). */
  timeoutMs: number;
}

/** One pool per process, shared by Prisma's adapter and the hot-path reads (lib/db/sql.ts). */
export function createPostgresClient({ url, poolMax, timeoutMs }: PostgresOptions): { client: Db; pool: BoundedPool } {
  const pool = new BoundedPool({ url, max: poolMax, timeoutMs });
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
