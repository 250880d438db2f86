import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import type { CommandResult } from "@/lib/cli/commands";
import { sendCommand } from "@/lib/cli/execute";
import { readLock } from "@/lib/db/lock";
import type { Env } from "@/lib/env";
import { fail, pass, warn, type Verdict } from "./check";

// The embedded database, looked at without opening it. Opening would take its lock (a running server owns
// it), and on a new directory create, migrate and seed it: a check must change nothing. So the doctor reads
// the lock file, and asks a running server through its command socket what only the database knows.

/** The longest the doctor waits for a running server's answer on its socket. */
export const EMBEDDED_BOUND_MS = 5_000;

/** The directory itself if it exists, else the nearest ancestor that does: where the server would write. */
function nearestExisting(dir: string): string {
  let current = dir;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

function isWritable(dir: string): boolean {
  try {
    accessSync(nearestExisting(dir), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function usage(dataDir: string): string {
  const holder = readLock(dataDir);
  if (holder?.role === "server") return `in use by the running server (pid ${holder.pid})`;
  if (holder) return `in use by a sundown command (pid ${holder.pid})`;
  if (existsSync(path.join(dataDir, "pgdata"))) return "not open: the server opens it when it starts";
  return "not created yet: the server creates, migrates and seeds it when it first starts";
}

export function embeddedDatabaseVerdict(env: Env): Verdict {
  const { dataDir } = env;
  const production = env.NODE_ENV === "production" || env.serverless;
  const oneInstance = "Set DATABASE_URL to a PostgreSQL database to run more than one instance.";
  if (dataDir.startsWith("memory://")) {
    const detail = `embedded in memory (${dataDir}): its data is gone when the server stops`;
    return production ? warn(detail, oneInstance) : pass(detail);
  }
  if (!isWritable(dataDir)) {
    return fail(
      `embedded at ${dataDir}, which this user cannot write`,
      `Make ${dataDir} writable by the user the server runs as, or set SUNDOWN_DATA_DIR to a directory it can write.`,
    );
  }
  const detail = `embedded at ${dataDir}, ${usage(dataDir)}`;
  return production ? warn(`${detail}; it serves one instance only`, oneInstance) : pass(detail);
}

/** Asks the running server, if there is one, which migrations its database lacks. */
export async function embeddedMigrationsVerdict(dataDir: string): Promise<Verdict> {
  const holder = dataDir.startsWith("memory://") ? undefined : readLock(dataDir);
  if (holder?.role !== "server" || !holder.socket) {
    return pass("applied whenever the embedded database is opened");
  }
  const response = await sendCommand(holder.socket, "db.migrate", {});
  if (!response || !response.ok) {
    return warn(
      `not checked: the running server (pid ${holder.pid}) did not answer on its command socket` +
        (response ? ` (${response.error.message})` : ""),
      "Check that the server is healthy; it applies the migrations whenever it opens the database.",
    );
  }
  const { migrations, pending } = response.result as CommandResult<"db.migrate">;
  if (pending.length === 0) return pass(`all ${migrations} applied (asked the running server, pid ${holder.pid})`);
  return fail(
    `${pending.length} of ${migrations} not applied by the running server (pid ${holder.pid}): ${pending.join(", ")}`,
    "Restart the server: the embedded database applies its migrations when it opens.",
  );
}
