import { randomBytes } from "node:crypto";
import { RELEASE_SCRIPT, scriptSha, SLIDING_LOG_SCRIPT } from "./lua";
import type { WindowOperation, WindowState } from "./window";

// The sliding log (window.ts) in Redis or Upstash: one script call per request, atomic in the store,
// so every instance sharing the store sees and changes the same log.

/** The two script commands of @upstash/redis, which the ioredis adapter also implements. */
export interface ScriptRunner {
  evalsha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

const SLIDING_LOG_SHA = scriptSha(SLIDING_LOG_SCRIPT);
const RELEASE_SHA = scriptSha(RELEASE_SCRIPT);

// Members only need to be unique within one key's log: this process's random tag and a counter.
const processTag = randomBytes(6).toString("base64url");
let sequence = 0;

/** A new member for a request in a log; whoever records it can release it by this name. */
export function newLogMember(): string {
  return `${processTag}:${(sequence += 1)}`;
}

export class RedisSlidingLog {
  constructor(
    private readonly redis: ScriptRunner,
    /** Namespace of the logs, e.g. "sundown:api:key". */
    private readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * `now`: an instant to use instead of the store's own clock (tests replaying a sequence of instants);
   * `member`: the name the request is recorded under.
   */
  async apply(
    operation: WindowOperation,
    identifier: string,
    now?: number,
    member = newLogMember(),
  ): Promise<WindowState> {
    const args = [
      String(this.limit),
      String(this.windowMs),
      member,
      operation === "record" ? "1" : "0",
      String(now ?? Date.now()),
      now === undefined ? "0" : "1",
    ];
    const reply = await this.run(SLIDING_LOG_SCRIPT, SLIDING_LOG_SHA, [this.key(identifier)], args);
    if (!Array.isArray(reply) || reply.length !== 3) throw new Error("unexpected reply from the rate-limit script");
    const [allowed, remaining, resetInMs] = reply.map(Number);
    return { allowed: allowed === 1, remaining, resetInMs };
  }

  /** Takes the request recorded under `member` back out of the log. */
  async release(identifier: string, member: string): Promise<void> {
    await this.run(RELEASE_SCRIPT, RELEASE_SHA, [this.key(identifier)], [member]);
  }

  private key(identifier: string): string {
    return `${this.prefix}:${identifier}`;
  }

  private async run(script: string, sha: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(sha, keys, args);
    } catch (error) {
      // A store that restarted or flushed its scripts has forgotten this one: send the text once.
      if (!String(error).includes("NOSCRIPT")) throw error;
      return this.redis.eval(script, keys, args);
    }
  }
}
