// Every instant Sundown stores or accepts (a key's expiry, `since` and `until`, a report's `generated_at`) lies in
// the range that PostgreSQL's timestamptz, JavaScript's Date and ISO 8601's four-digit years all hold, in UTC after
// the offset is applied: `9999-12-31T23:59:59-05:00` is in the year 10000 and refused. One rule for every surface,
// so an instant accepted anywhere can be stored, read back and written out everywhere.

export const INSTANT_RANGE = { earliest: "1970-01-01T00:00:00.000Z", latest: "9999-12-31T23:59:59.999Z" } as const;

const EARLIEST_MS = Date.parse(INSTANT_RANGE.earliest);
const LATEST_MS = Date.parse(INSTANT_RANGE.latest);

/** A parsed `since` or `until`: a calendar day (YYYY-MM-DD, in the organization's time zone) or an instant; never both. */
export type PeriodBound = { day: string; instant?: never } | { instant: string; day?: never };

/** How a message states the range. */
export const INSTANT_RANGE_TEXT = `between ${INSTANT_RANGE.earliest} and ${INSTANT_RANGE.latest} (UTC)`;

/** True for an instant (milliseconds since the epoch) inside the range; false for NaN. */
export function isInInstantRange(milliseconds: number): boolean {
  return milliseconds >= EARLIEST_MS && milliseconds <= LATEST_MS;
}

/** A Date that holds an instant (not `Invalid Date`, as a driver gives for a value it cannot read). */
export function isValidDate(date: Date): boolean {
  return !Number.isNaN(date.getTime());
}
