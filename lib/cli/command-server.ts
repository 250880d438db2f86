import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { DbHandle } from "@/lib/db";
import { log } from "@/lib/log";
import { isCommandName } from "./command-args";
import { toCommandFailure } from "./errors";
import { encodeMessage, readMessage, type CommandResponse } from "./protocol";

// PGlite is one process's database, so while the server owns the embedded database the CLI cannot
// open it. Instead the server takes the CLI's commands on a unix socket that only its user can use
// (mode 0600, in the 0700 data directory) and runs them in-process against its own database.

const REQUEST_IDLE_MS = 30_000;

// Unix socket paths are limited to about 107 bytes: a deep data directory gets its socket in a
// private directory under the system's temporary directory; the lock file records where.
const MAX_SOCKET_PATH = 100;

function chooseSocketPath(dataDir: string): { socket: string; cleanup: () => void } {
  const beside = path.join(dataDir, "sundown.sock");
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) {
    return { socket: beside, cleanup: () => rmSync(beside, { force: true }) };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "sundown-"));
  return { socket: path.join(dir, "sundown.sock"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startCommandServer(handle: DbHandle): Promise<void> {
  if (handle.kind !== "embedded" || !handle.dataDir || !handle.lock) return;
  const { socket, cleanup } = chooseSocketPath(handle.dataDir);
  // Left behind by a server that was killed; we hold the lock, so no live server uses it.
  rmSync(socket, { force: true });
  const server = net.createServer((connection) => void serveConnection(connection));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Created private rather than tightened after the fact: no moment where others could connect.
    const umask = process.umask(0o077);
    try {
      server.listen(socket, () => {
        server.off("error", reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(socket, 0o600);
  server.unref();
  handle.lock.update({ socket });
  process.once("exit", () => {
    server.close();
    cleanup();
  });
  log("debug", "CLI command socket listening", { socket });
}

async function serveConnection(connection: net.Socket): Promise<void> {
  connection.on("error", () => connection.destroy());
  connection.setTimeout(REQUEST_IDLE_MS, () => connection.destroy());
  let request: unknown;
  try {
    request = await readMessage(connection);
  } catch (error) {
    return reply(connection, {
      ok: false,
      error: { message: `bad request: ${(error as Error).message}`, exitCode: 2 },
    });
  }
  // A long import may run for a while; the client has its own deadline.
  connection.setTimeout(0);
  const { command, args } = (request ?? {}) as { command?: unknown; args?: unknown };
  if (!isCommandName(command)) {
    return reply(connection, {
      ok: false,
      error: { message: `unknown command ${JSON.stringify(command)}`, exitCode: 2 },
    });
  }
  const started = performance.now();
  let response: CommandResponse;
  try {
    // The commands (the demo seed, the import, key management) load with the first one, not with the server.
    const { runCommand } = await import("./commands");
    response = { ok: true, result: await runCommand(command, args ?? {}) };
  } catch (error) {
    response = { ok: false, error: toCommandFailure(error) };
  }
  // The command name only: arguments and results can hold data, and a created key's secret.
  log(response.ok ? "info" : "warn", "cli command", {
    command,
    ok: response.ok,
    ...(response.ok ? {} : { error: response.error.message }),
    duration_ms: Math.round(performance.now() - started),
  });
  reply(connection, response);
}

function reply(connection: net.Socket, response: CommandResponse): void {
  if (!connection.writable) return;
  connection.end(encodeMessage(response));
}
