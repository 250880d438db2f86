import type { DbHandle } from "@/lib/db";
import type { PoolerVerdict } from "@/lib/db/pooler";
import type { SqlReader } from "@/lib/db/sql";
import type { Env, StatementNaming } from "@/lib/env";
import { readStoreConfig } from "@/lib/ratelimit/stores";
import { maskUrl } from "./mask";

// How the database and the rate-limit store are named to the operator, in the same words by `sundown doctor`
// and by the server's start banner (lib/server/start.ts).

/** Whether a reader sends its statements named now; undefined for one that has no such choice (PGlite). */
function sendsNamed(sql: SqlReader): boolean | undefined {
  return "named" in sql && typeof sql.named === "boolean" ? sql.named : undefined;
}

/** How hot-path statements go to PostgreSQL, given the pooler verdict and the reader's state after it. */
export function describeStatements(named: boolean, verdict: PoolerVerdict, setting: StatementNaming): string {
  if (named) {
    return verdict.pooled
      ? "statements sent named (DATABASE_PREPARED_STATEMENTS=true), unnamed from the first one the pooler loses"
      : "statements sent named (prepared once per connection)";
  }
  if (setting === "unnamed") return "statements sent unnamed (DATABASE_PREPARED_STATEMENTS=false)";
  return verdict.pooled
    ? "statements sent unnamed, as a transaction pooler needs: handled"
    : "statements sent unnamed since a named one was lost";
}

/**
 * Direct or through a pooler (and how that was told), and how statements are sent as a result. Asks the
 * pooler question of the handle (one round trip the first time), so it rejects when PostgreSQL is unreachable.
 */
export async function describeRoute(handle: DbHandle, setting: StatementNaming): Promise<string> {
  const verdict = await handle.detectPooler();
  const route = verdict.pooled ? `through a connection pooler: ${verdict.reason}` : `direct: ${verdict.reason}`;
  const named = sendsNamed(handle.sql);
  return named === undefined ? route : `${route}; ${describeStatements(named, verdict, setting)}`;
}

/** PostgreSQL at its masked URL, or the embedded database's directory. */
export function describeDatabaseLocation(env: Env): string {
  return env.DATABASE_URL ? `PostgreSQL at ${maskUrl(env.DATABASE_URL)}` : `embedded at ${env.dataDir}`;
}

/** Where the per-key limit is counted, without credentials. */
export function describeStore(env: Env): string {
  const config = readStoreConfig(env);
  if (config.kind === "upstash") return `Upstash at ${new URL(config.url).origin}`;
  if (config.kind === "redis") return `Redis at ${maskUrl(config.url)}`;
  return "memory (each instance counts on its own)";
}
