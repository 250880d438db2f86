// The anchor's only route: what a developer writes by hand for Sundown's keyed `GET /api/v1/reports` on bare
// Next.js — hash the key, look it up with the 14 newest summaries in one statement, check expiry and scope, one
// sliding-window step in Redis, answer JSON. No validation library, no error table, no contact scrubbing, no
// cursor: the floor the framework sets, which `npm run bench` holds Sundown's CPU per request against.
import { createHash, randomUUID } from "node:crypto";
import Redis from "ioredis";
import { Pool } from "pg";
import { SLIDING_LOG_SCRIPT, stripLuaShebang } from "../../../../../../lib/ratelimit/lua";
import { ANCHOR_PAGE, anchorKeyAndPage } from "../../../../key-and-page";

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

const error = (status: number, code: string) => Response.json({ error: { code } }, { status });

export async function GET(request: Request): Promise<Response> {
  const authorization = request.headers.get("authorization") ?? "";
  if (!authorization.startsWith("Bearer sdn_sk_")) return error(401, "unauthorized");
  const hash = createHash("sha256").update(authorization.slice(7)).digest("hex");
  const { rows } = await pool.query<Row>({ ...anchorKeyAndPage, values: [hash] });
  const key = rows[0];
  const now = Date.now();
  if (
    !key ||
    (key.revoked_at && key.revoked_at.getTime() <= now) ||
    (key.expires_at && key.expires_at.getTime() <= now)
  )
    return error(401, "unauthorized");
  if (!key.scopes.includes("reports:read")) return error(403, "forbidden");
  if (!(await admit(key.id))) return error(429, "rate_limited");
  const reports = key.reports.slice(0, ANCHOR_PAGE);
  return Response.json({ reports, next_cursor: key.reports.length > ANCHOR_PAGE ? reports.at(-1)!.id : null });
}
