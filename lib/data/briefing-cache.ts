import type { Briefing } from "@/lib/schemas/briefing";
import type { ReadRequest } from "./organization-read";

// The briefings this process computed, served again while nothing they read has changed. A briefing groups a
// period's items (tens of thousands at 30 days of a large team), so computing it costs the database two orders of
// magnitude more than a page of reports; agents ask the same question again and again.
//
// Sound across organizations and instances because the database decides: the briefing's statement computes a token
// from the organization's row (its id, briefing_version, which triggers move with every report or absence stored,
// replaced or deleted, and contacts_version, which the masking depends on), the zone and the period's instants, and
// computes the briefing only when the process sent no answer for that token (prisma/migrations/
// 20261224000000_briefing_version). An answer whose open blockers' days_open count to now holds only until the next
// whole day of any of them (valid_until, checked by the database's clock). A hit costs the statement a row lookup.

/** The statement's answer: its token, and the briefing with how long it holds, or null when a held one is valid. */
export interface BriefingComputed {
  token: string;
  /** Epoch milliseconds until which the answer holds as it is; null: while the token stands. */
  validUntil: number | null;
  briefing: Briefing | null;
}

interface Entry {
  token: string;
  /** As the statement takes it: `token@valid until`. */
  held: string;
  briefing: Briefing;
  /** The answer's JSON length: what it weighs on the process's memory, roughly. */
  size: number;
}

/**
 * Argument lists (limit, period, filters) held, least recently computed first, each with the answers of up to
 * PER_QUERY organizations; at most MAX_QUERIES lists and MAX_CHARS of answers in all (a briefing at limit 100 can
 * weigh megabytes), so the cache stays a small part of a server's heap. Too large an answer is not kept.
 */
const MAX_QUERIES = 64;
const PER_QUERY = 4;
const MAX_CHARS = 16_000_000;
const byQuery = new Map<string, Entry[]>();
let heldChars = 0;

/** The answers held for these arguments (`query`), to send with the statement. */
export function heldBriefings(query: string): readonly Entry[] {
  return byQuery.get(query) ?? [];
}

function forget(query: string) {
  for (const entry of heldBriefings(query)) heldChars -= entry.size;
  byQuery.delete(query);
}

function hold(query: string, token: string, validUntil: number | null, briefing: Briefing) {
  const size = JSON.stringify(briefing).length;
  const organization = token.slice(0, token.indexOf(":"));
  // An organization's older answer for the same arguments can never be valid again: its version only moves on.
  const kept = heldBriefings(query).filter((entry) => !entry.token.startsWith(`${organization}:`));
  forget(query);
  const entries =
    size > MAX_CHARS / 8
      ? kept
      : [{ token, held: `${token}@${validUntil ?? ""}`, briefing: deepFreeze(briefing), size }, ...kept];
  const listed = entries.slice(0, PER_QUERY);
  if (listed.length === 0) return;
  byQuery.set(query, listed);
  heldChars += listed.reduce((sum, entry) => sum + entry.size, 0);
  while (byQuery.size > MAX_QUERIES || heldChars > MAX_CHARS) forget(byQuery.keys().next().value!);
}

/** Served to every caller from now on: frozen, so no caller can change another's answer. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The briefing's read (`request`, sent with `held`, the answers held for `query` when it was made) as a read of the
 * briefing: what the database computed, kept, or the held answer it named.
 */
export function cachedBriefing(
  query: string,
  held: readonly Entry[],
  request: ReadRequest<BriefingComputed>,
): ReadRequest<Briefing> {
  const toBody = (json: unknown): Briefing => {
    const { token, validUntil, briefing } = request.toBody(json);
    if (briefing) {
      hold(query, token, validUntil, briefing);
      return briefing;
    }
    const kept = held.find((entry) => entry.token === token);
    // The statement answers null only for a token it was sent.
    if (!kept) throw new Error("The briefing's statement named an answer this request did not hold.");
    return kept.briefing;
  };
  return {
    name: request.name,
    planEachRun: request.planEachRun,
    args: request.args,
    sqlAt: request.sqlAt,
    toBody,
    withContactsFor: (json) => {
      const again = request.withContactsFor(json);
      return again && cachedBriefing(query, held, again);
    },
    fetchJson: request.fetchJson,
    run: async (organizationId) => toBody(await request.fetchJson(organizationId)),
  };
}
