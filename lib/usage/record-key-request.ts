import { after } from "next/server";
import { addKeyUsage, type UsageOutcome } from "@/lib/data/key-usage";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { UsageCounter } from "./counter";

// The process's usage counter and when it flushes. Off the request path: a request adds to a Map; the flush is one
// statement once an interval (SUNDOWN_KEY_USAGE_FLUSH_SECONDS, a minute by default), started two ways, because
// neither is enough everywhere:
// - a timer (unref'd, so it never keeps a process alive) for a long-lived server between requests;
// - after a response (Next's `after`) when the last flush is an interval old, for serverless instances, which are
//   frozen between requests and whose timers therefore do not fire.
// No flush on SIGTERM: `next start` exits as soon as its server has closed, without waiting for other work, so a
// stopping instance loses at most its last interval of counts, as a crashing one does.

/** The key a request was admitted for (active, identified), as the request's handler learned it. */
export interface CountedKey {
  id: string;
  organizationId: string;
}

/**
 * What a finished request counts as. Any status below 400 (304 included) is a success; 429 is rate-limited; any
 * other 4xx a client error. A 5xx is ours, not the caller's, and is not counted (the log line has it).
 */
export function usageOutcome(status: number): UsageOutcome | undefined {
  if (status < 400) return "successes";
  if (status === 429) return "rate_limited";
  if (status < 500) return "client_errors";
  return undefined;
}

const TIMER_CHECK_MS = 5_000;

const registry = globalThis as typeof globalThis & { __sundownUsage?: UsageCounter };

function counter(): UsageCounter {
  if (!registry.__sundownUsage) {
    const intervalMs = getEnv().SUNDOWN_KEY_USAGE_FLUSH_SECONDS * 1_000;
    const created = new UsageCounter({ write: addKeyUsage, intervalMs });
    registry.__sundownUsage = created;
    // Checked every few seconds, flushed only when due: an interval after the last flush, whichever way it came.
    const timer = setInterval(
      () => {
        if (created.isFlushDue()) void flushKeyUsage();
      },
      Math.min(TIMER_CHECK_MS, intervalMs),
    );
    timer.unref();
  }
  return registry.__sundownUsage;
}

/** Counts one finished request for its key, and schedules a flush when one is due. */
export function recordKeyRequest(key: CountedKey, status: number): void {
  const outcome = usageOutcome(status);
  if (!outcome || !getEnv().SUNDOWN_KEY_USAGE) return;
  const usage = counter();
  usage.record(key.id, key.organizationId, outcome);
  if (!usage.isFlushDue()) return;
  try {
    after(flushKeyUsage);
  } catch {
    // Outside a Next request scope (tests, scripts): flush without holding anything.
    void flushKeyUsage();
  }
}

/** Writes the counts held in this process; a failure is logged and the counts wait for the next flush. */
export async function flushKeyUsage(): Promise<void> {
  const usage = registry.__sundownUsage;
  if (!usage) return;
  try {
    await usage.flush();
  } catch (error) {
    log("warn", "could not record key usage; retrying at the next flush", {
      pending: usage.size,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  if (usage.dropped > 0) {
    log("warn", "key usage not counted: too many keys and days waiting for the database", { requests: usage.dropped });
    usage.dropped = 0;
  }
}
