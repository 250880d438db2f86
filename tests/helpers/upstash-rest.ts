import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis as IORedis } from "ioredis";
import { NOSCRIPT_MESSAGE, scriptSha, ShebangFreeScripts } from "@/lib/ratelimit/lua";

// A loopback translator of the Upstash REST protocol onto a real Redis, so the production code path
// (@upstash/redis over HTTP, running the sliding-log script) runs unchanged in tests:
//   POST /             body ["CMD", ...args]          → {"result": …} or 400 {"error": …}
//   POST /pipeline     body [["CMD", …], …]           → [{"result": …} | {"error": …}, …]
//   POST /multi-exec   same as /pipeline, in one MULTI/EXEC
// with `Authorization: Bearer <token>` and, when the client asks (Upstash-Encoding: base64),
// strings base64-encoded. Like Upstash, it accepts the ratelimit scripts' `#!lua flags=…` line,
// which the Redis under it (7.0) would refuse.

type Command = [string, ...unknown[]];
type Reply = { result: unknown } | { error: string };

export interface UpstashTranslator {
  url: string;
  token: string;
  close(): Promise<void>;
}

function encode(value: unknown, base64: boolean): unknown {
  if (Buffer.isBuffer(value)) return base64 ? value.toString("base64") : value.toString("utf8");
  if (Array.isArray(value)) return value.map((v) => encode(v, base64));
  return value;
}

export async function startUpstashTranslator(
  redisUrl: string,
  token = "test-upstash-token",
): Promise<UpstashTranslator> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 0, retryStrategy: () => 100 });
  redis.on("error", () => {});
  const scripts = new ShebangFreeScripts();

  /** Rewrites script commands; returns an error reply instead when EVALSHA names an unknown script. */
  function rewrite([name, ...args]: Command): Command | { error: string } {
    const cmd = String(name).toLowerCase();
    if ((cmd === "eval" || cmd === "eval_ro") && typeof args[0] === "string") {
      return [cmd, scripts.prepare(args[0]).script, ...args.slice(1)];
    }
    if ((cmd === "evalsha" || cmd === "evalsha_ro") && typeof args[0] === "string") {
      const sha = scripts.translate(args[0]);
      return sha ? [cmd, sha, ...args.slice(1)] : { error: NOSCRIPT_MESSAGE };
    }
    if (cmd === "script" && String(args[0]).toLowerCase() === "load" && typeof args[1] === "string") {
      // The client expects the SHA of the text it sent; EVALSHA with it is translated above.
      return [cmd, "load", scripts.prepare(args[1]).script, ...args.slice(2)];
    }
    return [cmd, ...args];
  }

  async function run(command: Command, base64: boolean): Promise<Reply> {
    const rewritten = rewrite(command);
    if (!Array.isArray(rewritten)) return rewritten;
    const [cmd, ...args] = rewritten;
    try {
      const result = await redis.callBuffer(cmd, ...(args.map((a) => (a === null ? "" : String(a))) as string[]));
      if (cmd === "script" && String(args[0]).toLowerCase() === "load") {
        return { result: scriptSha(String(command[2])) };
      }
      return { result: encode(result, base64) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  async function runTransaction(commands: Command[], base64: boolean): Promise<Reply[]> {
    const multi = redis.multi();
    const replies: (Reply | undefined)[] = [];
    for (const command of commands) {
      const rewritten = rewrite(command);
      if (!Array.isArray(rewritten)) {
        replies.push(rewritten);
        continue;
      }
      replies.push(undefined);
      const [cmd, ...args] = rewritten;
      multi.callBuffer(cmd, ...(args.map((a) => (a === null ? "" : String(a))) as string[]));
    }
    const results = (await multi.exec()) ?? [];
    let next = 0;
    return replies.map((reply) => {
      if (reply) return reply;
      const [error, result] = results[next++] ?? [new Error("transaction aborted"), null];
      return error ? { error: error.message } : { result: encode(result, base64) };
    });
  }

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST") return send(405, { error: "Method not allowed" });
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    let raw = "";
    for await (const chunk of req) raw += chunk;
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(400, { error: "ERR failed to parse command" });
    }
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const path = (req.url ?? "/").split("?")[0].replace(/\/+$/, "");
    if (path === "/pipeline" || path === "/multi-exec") {
      if (!Array.isArray(body) || !body.every(Array.isArray))
        return send(400, { error: "ERR pipeline body must be an array of commands" });
      const commands = body as Command[];
      const replies =
        path === "/pipeline"
          ? await Promise.all(commands.map((c) => run(c, base64)))
          : await runTransaction(commands, base64);
      return send(200, replies);
    }
    if (path !== "") return send(404, { error: "Not found" });
    if (!Array.isArray(body) || body.length === 0) return send(400, { error: "ERR command must be a non-empty array" });
    const reply = await run(body as Command, base64);
    return send("error" in reply ? 400 : 200, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
