// A period's bounds as the reads take them: an instant (ISO 8601 with Z) is the same everywhere; a calendar day is a
// day in the organization's time zone (organizations.time_zone, an IANA name, default UTC), which only the
// database holds where a keyed request is answered. So a day is turned into instants in SQL, in the statement that
// reads the reports: with the key lookup, the organization's row is already joined and the zone costs nothing.

/** The organization's time zone (the `zone` of boundSql), as an SQL expression, for the organization whose id is `organizationId` (SQL). */
export function organizationTimeZoneSql(organizationId: string): string {
  return `(SELECT tz.time_zone FROM organizations tz WHERE tz.id = ${organizationId})`;
}

/**
 * A bound's first (since) or last (until) instant as SQL of type timestamptz, from its placeholders: the day's
 * midnight in the zone (the next day's, less a millisecond, for until; a day may have 23 or 25 hours), or the
 * instant as sent.
 */
export function boundSql(
  end: "since" | "until",
  slots: { day?: string; instant?: string },
  zone: string,
): string | undefined {
  if (slots.instant) return `${slots.instant}::timestamptz`;
  if (!slots.day) return undefined;
  return end === "since"
    ? `((${slots.day}::date)::timestamp AT TIME ZONE ${zone})`
    : `(((${slots.day}::date + 1)::timestamp AT TIME ZONE ${zone}) - interval '1 millisecond')`;
}
