import { z } from "zod";
import { inputExcerpt } from "@/lib/text/input-excerpt";

// An organization's time zone: an IANA name the runtime's Intl knows (its list, Intl.supportedValuesOf, which leaves
// out UTC itself, so UTC is added). Written as the runtime names it: any spelling or alias Intl accepts
// (america/los_angeles, US/Pacific) is stored under its canonical name. A fixed offset (+05:30) is not a zone: it
// knows no daylight saving time.

const DEFAULT_TIME_ZONE = "UTC";

let known: Set<string> | undefined;

function knownTimeZones(): Set<string> {
  known ??= new Set([DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf("timeZone")]);
  return known;
}

/** The zone's canonical name, or undefined when the runtime does not know it as an IANA zone. */
function canonicalTimeZone(name: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return knownTimeZones().has(resolved) ? resolved : undefined;
}

/** The same rule and message on every surface that sets a zone (the CLI's --time-zone, Settings). */
export const timeZoneSchema = z
  .string()
  .trim()
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (canonical === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `${inputExcerpt(name)} is not an IANA time zone: use a name such as America/Los_Angeles, Europe/Berlin or UTC.`,
      });
      return z.NEVER;
    }
    return canonical;
  });

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone: the day a `since`/`until` date names there. */
export function calendarDayIn(instant: string | Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(typeof instant === "string" ? new Date(instant) : instant);
}
