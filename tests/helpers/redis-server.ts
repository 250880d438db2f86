import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { freePort } from "./server";

// A throwaway redis-server on a free port, for tests that stop and start Redis or must not share
// counters with anything else. The shared Redis on 6379 is never touched.

export interface ThrowawayRedis {
  url: string;
  port: number;
  /** Starts (or restarts) the server on the same port and waits until it answers PING. */
  start(): Promise<void>;
  /** Stops the server and waits for its process to exit. */
  stop(): Promise<void>;
}

const REDIS_SERVER_BIN = process.env.REDIS_SERVER_BIN ?? "redis-server";

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => {
      answer += d.toString();
      if (answer.includes("\r\n")) {
        socket.destroy();
        resolve(answer.startsWith("+PONG"));
      }
    });
    socket.on("error", () => resolve(false));
  });
}

/** `extraArgs`: further redis-server options, e.g. ["--rename-command", "TIME", ""] to play a managed Redis. */
export async function startRedisServer(extraArgs: string[] = []): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = "";
  const redis: ThrowawayRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child && child.exitCode === null) return;
      child = spawn(
        REDIS_SERVER_BIN,
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extraArgs],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      child.stdout!.on("data", (d: Buffer) => (output += d));
      child.stderr!.on("data", (d: Buffer) => (output += d));
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${output}`);
        if (await ping(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`redis-server did not answer on port ${port}:\n${output}`);
    },
    stop() {
      const running = child;
      child = undefined;
      return new Promise((resolve) => {
        if (!running || running.exitCode !== null) return resolve();
        running.once("exit", () => resolve());
        running.kill("SIGKILL");
      });
    },
  };
  await redis.start();
  return redis;
}
