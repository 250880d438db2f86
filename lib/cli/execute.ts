import net from "node:net";
import type { DbHandle } from "@/lib/db";
import { lockPath, readLock, type LockInfo } from "@/lib/db/lock";
import { readMigrations } from "@/lib/db/migrate";
import { demoWanted, seedDemoOnFirstStart } from "@/lib/demo/first-start";
import { getEnv } from "@/lib/env";
import type { CommandArgs, CommandName } from "./command-args";
import type { CommandResult } from "./commands";
import { CommandError } from "./errors";
import { encodeMessage, readMessage, type CommandResponse } from "./protocol";

// Where a CLI command runs: on PostgreSQL, directly; on the embedded database, through the running
// server that owns it (its command socket), or, with no server, by opening the database itself for
// the duration of the command. Two processes never open the same embedded database.

export interface ExecuteOptions {
  /** How long to wait for a database held by another CLI process or a server still starting. */
  waitMs?: number;
}

const RETRY_MS = 200;
const CONNECT_TIMEOUT_MS = 3_000;
// Longer than the import transaction's own limit (120 s), so the server's answer arrives first.
const RESPONSE_TIMEOUT_MS = 150_000;

export async function executeCommand<N extends CommandName>(
  name: N,
  args: CommandArgs<N>,
  options: ExecuteOptions = {},
): Promise<CommandResult<N>> {
  const env = getEnv();
  // The database modules load only when this process opens a database: going through the server's
  // socket needs neither Prisma nor PGlite, so it starts without loading them.
  const db = () => import("@/lib/db");
  const run = (handle: DbHandle) => runWithDatabase(handle, name, args);
  if (env.DATABASE_URL) return run((await db()).openPostgres(env.DATABASE_URL, 2, env.DATABASE_PREPARED_STATEMENTS));
  const dataDir = env.dataDir;
  if (dataDir.startsWith("memory://")) return run(await (await db()).openEmbedded(dataDir, "cli"));

  const deadline = Date.now() + (options.waitMs ?? 10_000);
  let holder: LockInfo | undefined;
  for (;;) {
    holder = readLock(dataDir);
    if (!holder) {
      const { EmbeddedDbBusyError, openEmbedded } = await db();
      const handle = await openEmbedded(dataDir, "cli").catch((error: unknown) => {
        if (error instanceof EmbeddedDbBusyError) return undefined;
        throw error;
      });
      if (handle) return run(handle);
    } else if (holder.socket) {
      const response = await sendCommand(holder.socket, name, args);
      if (response) {
        if (response.ok) return response.result as CommandResult<N>;
        throw new CommandError(response.error.message, response.error.exitCode);
      }
    }
    if (Date.now() >= deadline) throw busyError(dataDir, holder);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

export type MigrationResult = CommandResult<"db.migrate"> & {
  applied: string[];
  /** The database this run created because DATABASE_URL named one that did not exist yet. */
  createdDatabase?: string;
};

/**
 * `sundown db migrate`: PostgreSQL gets the pending migrations, in a database created first if DATABASE_URL
 * names one that does not exist yet (lib/db/create-database.ts); the embedded database migrates itself on open.
 */
export async function migrateDatabase(): Promise<MigrationResult> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const url = env.DATABASE_URL;
    const { migratePostgres } = await import("@/lib/db");
    const { createMissingDatabase, DatabaseNotCreatedError, isMissingDatabase } =
      await import("@/lib/db/create-database");
    let createdDatabase: string | undefined;
    const applied = await migratePostgres(url).catch(async (error: unknown) => {
      if (!isMissingDatabase(error)) throw error;
      try {
        createdDatabase = await createMissingDatabase(url);
      } catch (refusal) {
        if (refusal instanceof DatabaseNotCreatedError) throw new CommandError(refusal.message);
        throw refusal;
      }
      return migratePostgres(url);
    });
    const migrations = (await readMigrations()).length;
    return { database: "postgres" as const, migrations, pending: [], applied, createdDatabase };
  }
  return { ...(await executeCommand("db.migrate", {})), applied: [] };
}

async function runWithDatabase<N extends CommandName>(
  handle: DbHandle,
  name: N,
  args: CommandArgs<N>,
): Promise<CommandResult<N>> {
  const { closeDb, installDbHandle } = await import("@/lib/db");
  const { runCommand } = await import("./commands");
  installDbHandle(handle);
  // An interrupted command still closes the database cleanly and releases the lock.
  const onSignal = () => void closeDb().finally(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    // The CLI is never `npm run dev`: the demo comes only with SUNDOWN_DEMO=1 (or `sundown seed --demo`).
    if (demoWanted(handle, { demo: getEnv().SUNDOWN_DEMO, underNextDev: false })) await seedDemoOnFirstStart(handle);
    return await runCommand(name, args);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await closeDb();
  }
}

/**
 * Sends one command to a server's socket. `undefined` means nothing was delivered (nobody listening): safe to
 * retry. Never opens the database, so `sundown doctor` asks a running server through it.
 */
export function sendCommand(
  socketPath: string,
  command: CommandName,
  args: unknown,
): Promise<CommandResponse | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let delivered = false;
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    socket.once("timeout", () => {
      socket.destroy();
      if (!delivered) resolve(undefined);
      else
        reject(
          new CommandError(
            `The server did not answer within ${RESPONSE_TIMEOUT_MS / 1000} s; the command may or may not have been applied.`,
          ),
        );
    });
    socket.on("error", () => {
      if (!delivered) resolve(undefined);
    });
    socket.once("connect", () => {
      delivered = true;
      socket.setTimeout(RESPONSE_TIMEOUT_MS);
      socket.write(encodeMessage({ command, args }));
      readMessage(socket).then(
        (message) => {
          socket.destroy();
          resolve(message as CommandResponse);
        },
        () => {
          socket.destroy();
          reject(
            new CommandError(
              "Lost the connection to the server during the command; it may or may not have been applied.",
            ),
          );
        },
      );
    });
  });
}

function busyError(dataDir: string, holder: LockInfo | undefined): CommandError {
  if (holder?.role === "server" && holder.socket) {
    return new CommandError(
      `The embedded database in ${dataDir} is held by server process ${holder.pid}, but its command socket does not answer.\n` +
        `If no Sundown server is running, remove ${lockPath(dataDir)} and try again.`,
    );
  }
  if (holder?.role === "server") {
    return new CommandError(
      `The Sundown server (process ${holder.pid}) is still opening the embedded database in ${dataDir}; try again in a moment.`,
    );
  }
  return new CommandError(
    `Another sundown command (process ${holder?.pid ?? "unknown"}) is using the embedded database in ${dataDir}; try again when it has finished.`,
  );
}
