import type { Socket } from "node:net";
import type { CommandName } from "./command-args";
import type { CommandFailure } from "./errors";

// The CLI's channel to a server that owns the embedded database: a unix socket beside the database,
// one newline-terminated JSON request per connection, answered by one newline-terminated JSON response.

export interface CommandRequest {
  command: CommandName;
  args: unknown;
}

export type CommandResponse = { ok: true; result: unknown } | { ok: false; error: CommandFailure };

/** Room for the largest import file (20 MB) once re-encoded, with margin. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function encodeMessage(message: CommandRequest | CommandResponse): string {
  return `${JSON.stringify(message)}\n`;
}

/** Reads one newline-terminated JSON message from a socket. */
export function readMessage(socket: Socket, maxBytes = MAX_MESSAGE_BYTES): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | undefined, value?: unknown) => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("error", onError);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline);
      chunks.push(part);
      size += part.length;
      if (size > maxBytes) return finish(new Error(`message larger than ${maxBytes} bytes`));
      if (newline === -1) return;
      try {
        finish(undefined, JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        finish(new Error("message is not valid JSON"));
      }
    };
    const onEnd = () => finish(new Error("connection closed before a complete message"));
    const onError = (error: Error) => finish(error);
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("error", onError);
  });
}
