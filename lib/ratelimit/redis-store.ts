import { randomBytes } from "node:crypto";
import { scriptSha, SLIDING_LOG_SCRIPT } from "./lua";
import type { WindowOperation, WindowState } from "./window";

// The sliding log (window.ts) in Redis or Upstash: one script call per request, atomic in the store,
// so every instance sharing the store sees and changes the same log.

/** The two script commands of @upstash/redis, which the ioredis adapter also implements. */
export interface ScriptRunner {
  evalsha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

const SLIDING_LOG_SHA = scriptSha(SLIDING_LOG_SCRIPT);

// Members only need to be unique within one key's log: this process's random tag and a counter.
const processTag = randomBytes(6).toString("base64url");
let sequence = 0;

export class RedisSlidingLog {
  constructor(
    private readonly redis: ScriptRunner,
    /** Namespace of the logs, e.g. "sundown:api:key". */
    private readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** `now`: an instant to use instead of the store's own clock (tests replaying a sequence of instants). */
  async apply(operation: WindowOperation, identifier: string, now?: number): Promise<WindowState> {
    const keys = [`${this.prefix}:${identifier}`];
    const args = [
      String(this.limit),
      String(this.windowMs),
      `${processTag}:${(sequence += 1)}`,
      operation === "record" ? "1" : "0",
      String(now ?? Date.now()),
      now === undefined ? "0" : "1",
    ];
    const reply = await this.run(keys, args);
    if (!Array.isArray(reply) || reply.length !== 3) throw new Error("unexpected reply from the rate-limit script");
    const [allowed, remaining, resetInMs] = reply.map(Number);
    return { allowed: allowed === 1, remaining, resetInMs };
  }

  private async run(keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(SLIDING_LOG_SHA, keys, args);
    } catch (error) {
      // A store that restarted or flushed its scripts has forgotten this one: send the text once.
      if (!String(error).includes("NOSCRIPT")) throw error;
      return this.redis.eval(SLIDING_LOG_SCRIPT, keys, args);
    }
  }
}
