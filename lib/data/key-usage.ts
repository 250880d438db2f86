import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";

// Requests per key per UTC day (the api_key_usage table): the flush that adds an instance's counts, and the read of
// an organization's last 30 days for the settings page and `keys list`.

const USAGE_WINDOW_DAYS = 30;

// What a counted request was, one column each (lib/usage/record-key-request.ts decides which).
const USAGE_OUTCOMES = ["successes", "client_errors", "rate_limited"] as const;
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

type OutcomeCounts = Record<UsageOutcome, number>;

/** One key's counts for one UTC day, as a flush hands them to addKeyUsage. */
export interface UsageCount extends OutcomeCounts {
  apiKeyId: string;
  organizationId: string;
  /** The UTC day of the requests, YYYY-MM-DD. */
  day: string;
}

const DAY_MS = 86_400_000;
// The day last formatted: counting runs on every keyed request, and a Date is dear inside Next.js, which
// wraps the constructor to watch for dynamic data.
let lastDay = { start: Number.NaN, text: "" };

/** The UTC day of an instant, YYYY-MM-DD. */
export function utcDay(at: number): string {
  const start = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
  if (start !== lastDay.start) lastDay = { start, text: new Date(start).toISOString().slice(0, 10) };
  return lastDay.text;
}

/** A key's usage as the settings page and `keys list` show it: the requests of each UTC day of a window, by outcome. */
export interface KeyUsage {
  /** Oldest first, one entry per UTC day of the window, days without requests included as zeros. */
  days: ({ date: string } & OutcomeCounts)[];
  totals: OutcomeCounts;
}

// One statement for the whole batch, added to what is stored: several instances flushing the same key and day sum.
// The batch's id is claimed first, in the same statement: a batch already claimed (written before, its reply lost)
// adds nothing. Claims older than a day go in the same statement. The join drops counts of a key deleted since it
// was counted (its organization was deleted), so they cannot fail the batch.
const addUsage: Statement = {
  name: "key-usage-add",
  text: `WITH claimed AS (
      INSERT INTO api_key_usage_batches (id) VALUES ($7::uuid) ON CONFLICT (id) DO NOTHING RETURNING id
    ), expired AS (
      DELETE FROM api_key_usage_batches WHERE applied_at < now() - interval '1 day'
    )
    INSERT INTO api_key_usage (api_key_id, organization_id, day, successes, client_errors, rate_limited)
    SELECT u.api_key_id, u.organization_id, u.day, u.successes, u.client_errors, u.rate_limited
    FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::int[], $5::int[], $6::int[])
      AS u(api_key_id, organization_id, day, successes, client_errors, rate_limited)
    JOIN api_keys k ON k.id = u.api_key_id AND k.organization_id = u.organization_id
    WHERE EXISTS (SELECT 1 FROM claimed)
    ON CONFLICT (api_key_id, day) DO UPDATE SET
      successes = api_key_usage.successes + EXCLUDED.successes,
      client_errors = api_key_usage.client_errors + EXCLUDED.client_errors,
      rate_limited = api_key_usage.rate_limited + EXCLUDED.rate_limited`,
};

/** Adds these counts to the stored ones (each key and day at most once in `counts`), once per `batchId`. */
export async function addKeyUsage(counts: UsageCount[], batchId: string): Promise<void> {
  if (counts.length === 0) return;
  await (
    await getSql()
  ).rows(addUsage, [
    counts.map((c) => c.apiKeyId),
    counts.map((c) => c.organizationId),
    counts.map((c) => c.day),
    counts.map((c) => c.successes),
    counts.map((c) => c.client_errors),
    counts.map((c) => c.rate_limited),
    batchId,
  ]);
}

interface UsageRow extends OutcomeCounts {
  api_key_id: string;
  day: string;
}

// Every key of the organization in one statement (the page shows up to hundreds of keys), on the
// (organization_id, day) index; a year of history costs nothing but the rows of the window.
const readUsage: Statement = {
  name: "key-usage-window",
  text: `SELECT api_key_id, to_char(day, 'YYYY-MM-DD') AS day, successes, client_errors, rate_limited
    FROM api_key_usage WHERE organization_id = $1 AND day >= $2::date AND day <= $3::date`,
};

/** The UTC days of the window ending today, oldest first. */
export function usageWindow(now: Date, days = USAGE_WINDOW_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => utcDay(today - (days - 1 - i) * 86_400_000));
}

/** A key's usage in the window; a key without requests (or of another organization) gets zeros. */
export type UsageOfKey = (keyId: string) => KeyUsage;

/**
 * The last 30 UTC days (today included) of every key of the organization, read in one statement, so it can run
 * beside the read of the keys themselves.
 */
export async function listKeyUsage(organizationId: string, now = new Date()): Promise<UsageOfKey> {
  const window = usageWindow(now);
  const rows = await (await getSql()).rows<UsageRow>(readUsage, [organizationId, window[0], window.at(-1)]);
  const byKeyDay = new Map(rows.map((row) => [`${row.api_key_id}/${row.day}`, row]));
  return (keyId) => {
    const days = window.map((date) => {
      const row = byKeyDay.get(`${keyId}/${date}`);
      return {
        date,
        successes: row?.successes ?? 0,
        client_errors: row?.client_errors ?? 0,
        rate_limited: row?.rate_limited ?? 0,
      };
    });
    return { days, totals: sumDays(days) };
  };
}

function sumDays(days: KeyUsage["days"]): OutcomeCounts {
  const totals: OutcomeCounts = { successes: 0, client_errors: 0, rate_limited: 0 };
  for (const day of days) for (const outcome of USAGE_OUTCOMES) totals[outcome] += day[outcome];
  return totals;
}
