// Days and instants in an organization's time zone: when a day's cutoff falls, which day an instant is on, and the
// arithmetic of calendar days (YYYY-MM-DD, counted as dates, never as 24-hour spans, so DST never shifts them).

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The wall-clock reading of an instant in a zone, as if that reading were UTC (ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

/** The instant (UTC) at which a day's cutoff ("HH:MM") falls in the zone. */
export function cutoffInstant(day: string, cutoffTime: string, timeZone: string): Date {
  const [hour, minute] = cutoffTime.split(":").map(Number);
  const wanted = Date.parse(`${day}T00:00:00.000Z`) + (hour! * 60 + minute!) * 60_000;
  // Two rounds find the offset in force at the instant itself, also on the day the offset changes.
  let instant = wanted - (wallClock(wanted, timeZone) - wanted);
  instant += wanted - wallClock(instant, timeZone);
  return new Date(instant);
}

/** The day an instant falls on in the zone. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Date(wallClock(instant.getTime(), timeZone)).toISOString().slice(0, 10);
}

/** The day `count` days after `day` (before, when negative). */
export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);
}

/** The ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}
