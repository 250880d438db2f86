import { z } from "zod";
import { INSTANT_RANGE, isInInstantRange } from "./instant";

const DAY_MS = 86_400_000;
const DAYS_FROM_NOW = /^(\d{1,4})d$/;
// Both ISO checks know the calendar: February 30 is refused, not rolled over into March. A timestamp
// must carry its time zone, so that it cannot mean different instants on different machines.
const isoDate = z.iso.date();
const isoTimestamp = z.iso.datetime({ offset: true });

const NOT_A_TIME =
  "Enter a date as YYYY-MM-DD, a time with its zone such as 2026-12-31T18:00:00Z, or a number of days such as 30d.";
const NOT_IN_FUTURE = "Choose a time in the future (a date alone means 00:00 UTC that day).";
const NO_DATE = "Choose a date, or choose never for a key that does not expire.";

/** The expiry that stands for none, written the same on every surface (the form's choice, the CLI's --expires). */
const NEVER_EXPIRES = "never";

/**
 * A new key's expiry when nobody chose one, on every surface: a key that never expires is the one that leaks and
 * goes on working unnoticed for years; 30 days would have founders re-issuing agent keys every month. 90 days is
 * the common rotation period, and the page's warning a week ahead leaves time to create the next key. Never stays
 * one explicit choice away.
 */
export const DEFAULT_KEY_EXPIRY = "90d";
const OUT_OF_RANGE = `Choose a time no later than ${INSTANT_RANGE.latest} (UTC), or no expiry.`;

function instantOf(text: string, now: Date): Date | undefined {
  const days = DAYS_FROM_NOW.exec(text);
  if (days) return new Date(now.getTime() + Number(days[1]) * DAY_MS);
  if (isoDate.safeParse(text).success) return new Date(`${text}T00:00:00Z`);
  if (isoTimestamp.safeParse(text).success) return new Date(text);
  return undefined;
}

/**
 * When a new key stops working, the same rule and messages on every surface that creates one (the
 * settings form's date field, the CLI's --expires): a date (`2026-12-31`, meaning 00:00 UTC that day),
 * a timestamp with a time zone (`2026-12-31T18:00:00+01:00`) or a number of days from `now` (`30d`),
 * in the future and within the instants Sundown stores (lib/schemas/instant.ts); or `never`. An empty text (a date
 * asked for but not given) is refused; leaving the input out is each surface's way of taking DEFAULT_KEY_EXPIRY.
 */
export function keyExpirySchema(now = new Date()) {
  return z.string({ error: NOT_A_TIME }).transform((value, ctx): Date | null => {
    const text = value.trim();
    if (text === NEVER_EXPIRES) return null;
    if (text === "") {
      ctx.addIssue({ code: "custom", message: NO_DATE });
      return z.NEVER;
    }
    const at = instantOf(text, now);
    if (!at) {
      ctx.addIssue({ code: "custom", message: NOT_A_TIME });
      return z.NEVER;
    }
    if (at.getTime() <= now.getTime()) {
      ctx.addIssue({ code: "custom", message: NOT_IN_FUTURE });
      return z.NEVER;
    }
    if (!isInInstantRange(at.getTime())) {
      ctx.addIssue({ code: "custom", message: OUT_OF_RANGE });
      return z.NEVER;
    }
    return at;
  });
}

/** The earliest date keyExpirySchema accepts, for a date picker's minimum: tomorrow in UTC. */
export function minExpiryDate(now = new Date()): string {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS).toISOString().slice(0, 10);
}
