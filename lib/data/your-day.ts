import { getDb } from "@/lib/db";
import { calendarDayIn } from "@/lib/schemas/time-zone";
import { dayText, dayValue, updateContentSchema, type StoredUpdate } from "./updates";

// What the "Your day" page (app/day) reads besides today's update: which day it is for the organization, whether its
// reports have been written yet, and the person's previous update, whose open items are offered to carry forward.

export interface OrganizationDay {
  /** Today, YYYY-MM-DD, in the organization's time zone. */
  day: string;
  /** The time there now, HH:MM. */
  time: string;
  /** Today's ISO weekday there, 1 = Monday. */
  weekday: number;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** Which day and time it is in a time zone at `now`. */
export function organizationDay(now: Date, timeZone: string): OrganizationDay {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    clockFormats.set(timeZone, format);
  }
  const day = calendarDayIn(now, timeZone);
  // The weekday of a calendar date does not depend on the zone: read it at noon UTC.
  const weekday = ((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
  return { day, time: format.format(now), weekday };
}

/** The person's last update before `day` (their previous day, however long ago), or null. */
export async function previousUpdate(
  organizationId: string,
  memberId: string,
  day: string,
): Promise<StoredUpdate | null> {
  const db = await getDb();
  const found = await db.update.findFirst({
    where: { organizationId, memberId, day: { lt: dayValue(day) } },
    orderBy: { day: "desc" },
    select: { memberId: true, day: true, content: true, source: true, writtenAt: true },
  });
  return found && { ...found, day: dayText(found.day), content: updateContentSchema.parse(found.content) };
}
