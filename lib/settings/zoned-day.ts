// A calendar day in a time zone as the instants it spans: Settings → Reports filters its list by the organization's
// days. DST-safe: each midnight's offset is the zone's at that midnight.

/** The zone's offset from UTC at `instant`, in milliseconds (east positive). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The first instant of `day` (YYYY-MM-DD) in `timeZone`. */
function startOfDay(day: string, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const guess = wall - offsetAt(wall, timeZone);
  // Once more at the guess: the offset at midnight may differ from the offset at midnight UTC (a DST change).
  return wall - offsetAt(guess, timeZone);
}

/** `day` in `timeZone` as inclusive ISO bounds, the list's `since` and `until`. */
export function dayBounds(day: string, timeZone: string): { since: string; until: string } {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    since: new Date(startOfDay(day, timeZone)).toISOString(),
    until: new Date(startOfDay(next, timeZone) - 1).toISOString(),
  };
}
