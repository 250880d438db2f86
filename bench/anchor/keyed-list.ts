// The anchor's work, shared by its two routes (the keyed list over REST and over MCP): hash the key, look it up
// with the 14 newest summaries in one statement, check expiry and scope, one sliding-window step in Redis. No
// validation library, no error table, no contact scrubbing, no cursor: what a developer writes by hand.
import { createHash, randomUUID } from "node:crypto";
import Redis from "ioredis";
import { Pool } from "pg";
import { SLIDING_LOG_SCRIPT, stripLuaShebang } from "../../lib/ratelimit/lua";
import { ANCHOR_PAGE, anchorKeyAndPage } from "./key-and-page";

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 5) });
// EVALSHA, as Sundown's limiter sends it (ioredis falls back to EVAL once when Redis lacks the script).
type SlidingLog = Redis & { slidingLog(key: string, ...args: (string | number)[]): Promise<[number, number, number]> };
const redis = process.env.REDIS_URL ? (new Redis(process.env.REDIS_URL) as SlidingLog) : undefined;
redis?.defineCommand("slidingLog", { numberOfKeys: 1, lua: stripLuaShebang(SLIDING_LOG_SCRIPT) });
const limit = Number(process.env.SUNDOWN_RATE_LIMIT ?? 120);
const WINDOW_MS = 60_000;

interface Row {
  id: string;
  scopes: string[];
  revoked_at: Date | null;
  expires_at: Date | null;
  reports: { id: string }[];
}

// Without REDIS_URL the window lives in memory, as Sundown's does.
const memory = new Map<string, number[]>();

async function admit(keyId: string): Promise<boolean> {
  if (!redis) {
    const now = Date.now();
    const log = (memory.get(keyId) ?? []).filter((t) => t > now - WINDOW_MS);
    if (log.length >= limit) return false;
    log.push(now);
    memory.set(keyId, log);
    return true;
  }
  const [allowed] = await redis.slidingLog(`anchor:${keyId}`, limit, WINDOW_MS, randomUUID(), "1", Date.now(), "0");
  return allowed === 1;
}

export interface KeyedPage {
  reports: { id: string }[];
  next_cursor: string | null;
}

/** The page a request's key may read, or the refusal (status and code) it gets instead. */
export async function keyedList(request: Request): Promise<KeyedPage | { status: number; code: string }> {
  const authorization = request.headers.get("authorization") ?? "";
  if (!authorization.startsWith("Bearer sdn_sk_")) return { status: 401, code: "unauthorized" };
  const hash = createHash("sha256").update(authorization.slice(7)).digest("hex");
  const { rows } = await pool.query<Row>({ ...anchorKeyAndPage, values: [hash] });
  const key = rows[0];
  const now = Date.now();
  if (
    !key ||
    (key.revoked_at && key.revoked_at.getTime() <= now) ||
    (key.expires_at && key.expires_at.getTime() <= now)
  )
    return { status: 401, code: "unauthorized" };
  if (!key.scopes.includes("reports:read")) return { status: 403, code: "forbidden" };
  if (!(await admit(key.id))) return { status: 429, code: "rate_limited" };
  const reports = key.reports.slice(0, ANCHOR_PAGE);
  return { reports, next_cursor: key.reports.length > ANCHOR_PAGE ? reports.at(-1)!.id : null };
}
