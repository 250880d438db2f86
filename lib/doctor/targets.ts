import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import type { DbHandle } from "@/lib/db";
import type { Env } from "@/lib/env";
import { readStoreConfig } from "@/lib/ratelimit/stores";

// The services the doctor talks to, opened once for all checks. Each first contact is remembered, failure
// included: when the database check finds PostgreSQL unreachable, the checks after it learn so at once
// instead of each waiting out the timeout again.

interface Reached {
  /** The first round trip, opening the connection included. */
  ms: number;
  version: string;
}

export interface PostgresTarget {
  kind: "postgres";
  handle: DbHandle;
  reach(): Promise<Reached>;
}

export type DatabaseTarget = PostgresTarget | { kind: "embedded"; dataDir: string };

export interface RemoteStoreTarget {
  kind: "redis" | "upstash";
  /** PING; resolves to the round trip in ms. */
  reach(): Promise<number>;
  /** Its clock (TIME), in ms since the epoch. */
  time(): Promise<number>;
  close(): Promise<void>;
}

export type StoreTarget = { kind: "memory" } | RemoteStoreTarget;

/** How long the doctor waits on the rate-limit store per command: generous for a store across a region. */
export const STORE_TIMEOUT_MS = 3_000;

function remembered<T>(work: () => Promise<T>): () => Promise<T> {
  let outcome: Promise<T> | undefined;
  return () => (outcome ??= work());
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: Math.round(performance.now() - started), value };
}

// One-off statements: sent unnamed (planEachRun), so they never leave a prepared statement behind.
const VERSION_STATEMENT = {
  name: "doctor-reach",
  text: "SELECT split_part(current_setting('server_version'), ' ', 1) AS version",
  planEachRun: true,
};

/** PostgreSQL at DATABASE_URL through the server's own pool (each query bounded by DATABASE_TIMEOUT_MS), or the embedded database. */
export async function openDatabaseTarget(env: Env): Promise<DatabaseTarget> {
  if (!env.DATABASE_URL) return { kind: "embedded", dataDir: env.dataDir };
  const { openPostgres } = await import("@/lib/db");
  // One connection: the checks run one after another.
  const handle = openPostgres(env.DATABASE_URL, 1, env.DATABASE_PREPARED_STATEMENTS);
  return {
    kind: "postgres",
    handle,
    reach: remembered(async () => {
      const { ms, value } = await timed(() => handle.sql.rows<{ version: string }>(VERSION_STATEMENT, []));
      return { ms, version: value[0]?.version ?? "" };
    }),
  };
}

const fromTime = ([seconds, micros]: [number | string, number | string]) =>
  Number(seconds) * 1_000 + Number(micros) / 1_000;

/** The rate-limit store the server would use (lib/ratelimit/stores.ts decides which), with a client of its own. */
export function openStoreTarget(env: Env): StoreTarget {
  const config = readStoreConfig(env);
  if (config.kind === "memory") return config;
  if (config.kind === "upstash") {
    const redis = new UpstashRedis({
      url: config.url,
      token: config.token,
      retry: false,
      enableTelemetry: false,
      signal: () => AbortSignal.timeout(STORE_TIMEOUT_MS),
    });
    return {
      kind: "upstash",
      reach: remembered(async () => (await timed(() => redis.ping())).ms),
      time: async () => fromTime(await redis.time()),
      close: async () => {},
    };
  }
  const client = new IORedis(config.url, {
    lazyConnect: true,
    connectTimeout: STORE_TIMEOUT_MS,
    commandTimeout: STORE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    // One attempt: the doctor reports a Redis that is down, it does not wait for it to come back.
    retryStrategy: () => null,
  });
  // A failed connection rejects the command with "Connection is closed"; the reason (refused, TLS, auth)
  // arrives as an error event, and without a listener ioredis would print it.
  let connectionError: Error | undefined;
  client.on("error", (error: Error) => (connectionError = error));
  const command = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw connectionError ?? error;
    }
  };
  return {
    kind: "redis",
    reach: remembered(async () => (await timed(() => command(() => client.ping()))).ms),
    time: async () => {
      const [seconds = 0, micros = 0] = await command(() => client.time());
      return fromTime([seconds, micros]);
    },
    close: async () => client.disconnect(),
  };
}
