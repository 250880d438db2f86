import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";

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

export function createPostgresClient({ url, poolMax }: PostgresOptions): Db {
  const adapter = new PrismaPg({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 1_000,
    idleTimeoutMillis: 30_000,
  });
  return new PrismaClient({ adapter, omit }) as Db;
}

export function createPgliteClient(pglite: PGlite): Db {
  return new PrismaClient({ adapter: new PrismaPGlite(pglite), omit }) as Db;
}
