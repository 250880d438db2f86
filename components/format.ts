import { isValidDate } from "@/lib/schemas/instant";

const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** What a time the database holds but no date format can write (Invalid Date) shows as: never a failed page. */
const INVALID_TIME = "invalid";

/** Times are rendered on the server in UTC, so server and browser agree and nothing shifts on hydration. */
export function formatDateTime(date: Date): string {
  return isValidDate(date) ? `${DATE_TIME.format(date)} UTC` : INVALID_TIME;
}

export function formatDate(date: Date): string {
  return isValidDate(date) ? DATE.format(date) : INVALID_TIME;
}

const TIME = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

export function formatTime(date: Date): string {
  return isValidDate(date) ? `${TIME.format(date)} UTC` : INVALID_TIME;
}

/** A `<time dateTime>` value; none for an invalid date. */
export function machineTime(date: Date): string | undefined {
  return isValidDate(date) ? date.toISOString() : undefined;
}
