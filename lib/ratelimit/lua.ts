import { createHash } from "node:crypto";

// Upstash locks only the keys a script names when its shebang says `allow-key-locking` (otherwise
// every script call takes the database-wide lock). Redis 7.0 refuses any script whose shebang names
// a flag it does not know ("Unexpected flag in script shebang"). Without the line, Redis runs the
// script with its default flags, which is what the script needs on a single node.
const SHEBANG = /^#![^\n]*\n/;

export function stripLuaShebang(script: string): string {
  return script.replace(SHEBANG, "");
}

/** The SHA1 by which Redis names a loaded script (EVALSHA, SCRIPT LOAD). */
export function scriptSha(script: string): string {
  return createHash("sha1").update(script).digest("hex");
}

/**
 * Maps the SHA1 a client computed on a script as written to the SHA1 of the script Redis actually
 * loaded (without its shebang). An unknown SHA is answered with NOSCRIPT, which makes the client
 * fall back to EVAL with the full text, where the mapping is learnt.
 */
export class ShebangFreeScripts {
  private readonly loaded = new Map<string, string>();

  /** The script Redis should run and its SHA, remembering the client's SHA for later EVALSHA calls. */
  prepare(script: string): { script: string; sha: string } {
    const stripped = stripLuaShebang(script);
    const sha = scriptSha(stripped);
    this.loaded.set(scriptSha(script), sha);
    return { script: stripped, sha };
  }

  /** The SHA to send to Redis for a client's SHA, or undefined when the script has not been seen. */
  translate(clientSha: string): string | undefined {
    return this.loaded.get(clientSha.toLowerCase());
  }
}

export const NOSCRIPT_MESSAGE = "NOSCRIPT No matching script. Please use EVAL.";

/**
 * The sliding log, one atomic step per call. KEYS[1]: the identifier's sorted set (score = the time
 * a request was admitted, member = unique per request). ARGV: limit, window in ms, a unique member,
 * "1" to record the request or "0" to only look, the caller's clock in ms, and "1" to use that clock.
 * Returns { allowed (1|0), remaining, ms until the count next drops below the limit (0: nothing logged) }.
 *
 * Whose clock: Redis's own (TIME), because the store is the one thing instances share. With callers'
 * clocks an instance running 20 s fast would stamp its requests 20 s late and see everyone else's
 * 20 s early, so two instances would disagree on the same key at the same moment. The reset goes back
 * as a duration, so each instance turns it into Retry-After on its own clock exactly. The caller's
 * clock is used when asked (tests replay a sequence at chosen instants) and when the server refuses
 * TIME in scripts (some managed Redis services do); Redis 5+ replicates a script's effects, not its
 * text, so TIME is safe on replicas.
 */
export const SLIDING_LOG_SCRIPT = `#!lua flags=allow-key-locking
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[5])
if ARGV[6] ~= "1" then
  local time = redis.pcall("TIME")
  if type(time) == "table" and time.err == nil then
    now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  end
end
redis.call("ZREMRANGEBYSCORE", key, "-inf", now - window)
local count = redis.call("ZCARD", key)
local allowed = 0
if count < limit then
  allowed = 1
  if ARGV[4] == "1" then
    redis.call("ZADD", key, now, ARGV[3])
    redis.call("PEXPIRE", key, window)
    count = count + 1
  end
end
local resetIn = 0
if count > 0 then
  local at = redis.call("ZRANGE", key, math.max(0, count - limit), math.max(0, count - limit), "WITHSCORES")
  resetIn = tonumber(at[2]) + window - now
end
return { allowed, math.max(0, limit - count), resetIn }
`;

/** Takes one request (KEYS[1]'s member ARGV[1]) back out of a sliding log. */
export const RELEASE_SCRIPT = `#!lua flags=allow-key-locking
return redis.call("ZREM", KEYS[1], ARGV[1])
`;
