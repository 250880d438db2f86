import { z } from "zod";
import { BRIEFING_LISTED_MAX as LISTED_MAX, briefingSchema } from "@/lib/schemas/briefing";
import { cachedBriefing, heldBriefings, type BriefingComputed } from "./briefing-cache";
import { defineScrubbedRead } from "./organization-read";
import { REPORT_ITEM_SECTIONS, type ReportItemKind } from "./report-items";
import type { ReportScope } from "@/lib/schemas/reports";
import type { PeriodBound } from "@/lib/schemas/instant";
import { boundSql, organizationTimeZoneSql } from "./period-bounds";
import { scrubContactDetails } from "./scrub";

// The briefing (GET /api/v1/briefing, get_briefing): one period's open blockers with their age, silent streaks,
// slipping items by owner, KPI trends and shipped work, computed in one statement from the items extracted when
// each report was stored (report_items; lib/data/report-items.ts), never from whole reports.
//
// The rules, each in one place below:
// - One blocker across reports is one owner (their member id when matched, else the owner as written, folded) and
//   one text (folded). It is open at the period's end when the newest report of a stream that listed it (a stream:
//   one scope and target) still lists it; else it was resolved, at that stream's first report without it.
//   days_open counts from its first report to the period's end (or to when it was resolved), plus the since_days
//   that first report gave it. An item without text is its own blocker, counted and shown, with no age.
// - Silent: the people the newest report of each stream lists as silent; `days` is the streak as written there,
//   `since` its first day in the organization's time zone. Absent people are not silent: a person (matched to the
//   roster) absent on the period's last day is left out, and the days of the streak they were absent are not
//   counted (nor is `since` one of them); a streak of absent days only is no streak.
// - Slipping: per owner, each item (owner and folded text) with its latest days_late and reason, first and last seen.
// - KPIs: per name (folded), one point per day in the organization's zone (an organization report's first), the
//   latest value, and each change of status between consecutive points.
// - Shipped: per person, how many different items, and the newest titles.

/**
 * Characters of any one text the briefing serves (a blocker, a title, a reason…): an item pasted whole into a report
 * cannot take the answer past what a model reads in one tool result; get_report serves it in full.
 */
const TEXT_MAX = 500;
const KINDS = Object.keys(REPORT_ITEM_SECTIONS)
  .map((kind) => `'${kind}'`)
  .join(", ");
/** The default period: today and the six days before it, in the organization's zone. */
const DEFAULT_DAYS = 7;

export interface BriefingQuery {
  /** Items per section. */
  limit: number;
  since?: PeriodBound;
  until?: PeriodBound;
  scope?: ReportScope;
  scope_target_id?: string;
}

/** An instant as the API writes it: ISO 8601, milliseconds, Z. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const dayText = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

/** A section's JSON from a CTE numbered by `n` in its order. */
function sectionSql(cte: string, item: string, limit: string): string {
  return `(SELECT json_build_object(
      'items', coalesce(json_agg(${item} ORDER BY s.n) FILTER (WHERE s.n <= ${limit}), '[]'::json),
      'count', count(*), 'limit', ${limit}, 'more', greatest(count(*) - ${limit}, 0)
    ) FROM ${cte} s)`;
}

type BriefingArgs = [
  limit: number,
  sinceDay: string | undefined,
  sinceInstant: string | undefined,
  untilDay: string | undefined,
  untilInstant: string | undefined,
  scope: ReportScope | undefined,
  scopeTargetId: string | undefined,
  /** The answers this process holds for these arguments (lib/data/briefing-cache.ts), as `token@valid until`. */
  held: string[],
];

/**
 * The statement's answer: the token naming what the briefing read (organization, its briefing and contacts versions,
 * zone and period), and the briefing computed, or null when the process holds one for that token still valid.
 */
const computedSchema = z.object({
  token: z.string(),
  computed: z.object({ valid_until: z.number().nullable(), briefing: briefingSchema }).nullable(),
});

const read = defineScrubbedRead<BriefingArgs, z.infer<typeof computedSchema>, BriefingComputed>({
  name: "briefing",
  sql: (organizationId, limit, sinceDay, sinceInstant, untilDay, untilInstant, scope, scopeTargetId, held) => {
    const n = `${limit}::int`;
    const today = `(now() AT TIME ZONE z.tz)::date`;
    const since =
      boundSql("since", { day: sinceDay, instant: sinceInstant }, "z.tz") ??
      `((${today} - ${DEFAULT_DAYS - 1})::timestamp AT TIME ZONE z.tz)`;
    const until =
      boundSql("until", { day: untilDay, instant: untilInstant }, "z.tz") ??
      `(((${today} + 1)::timestamp AT TIME ZONE z.tz) - interval '1 millisecond')`;
    const about = (table: string) =>
      (scope ? ` AND ${table}.scope = ${scope}::report_scope` : "") +
      (scopeTargetId ? ` AND ${table}.scope_target_id = ${scopeTargetId}::uuid` : "");
    const who = (position: string) => `coalesce(i.member_id::text, i.owner_key, ${position})`;
    const single = `i.report_id::text || ':' || i.kind || ':' || i.position`;
    const latest = (column: string) => `(array_agg(${column} ORDER BY i.generated_at DESC, i.report_id DESC))[1]`;
    const period = `z AS (SELECT ${organizationTimeZoneSql(organizationId)} AS tz),
p AS (SELECT z.tz, x.since_at, x.until_at, least(x.until_at, now()) AS as_of,
             (x.until_at AT TIME ZONE z.tz)::date AS last_day
      FROM z, LATERAL (SELECT ${since} AS since_at, ${until} AS until_at) x)`;
    const absentOn = (member: string, day: string) =>
      `EXISTS (SELECT 1 FROM absences a WHERE a.organization_id = ${organizationId} AND a.member_id = ${member}
                 AND a.first_day <= ${day} AND a.last_day >= ${day})`;
    // One kind's items, from the period's items of every kind (it): read once through the (organization, kind, date)
    // index, every kind named so that the index reads each kind's period, not the whole history. (Read apart per
    // section, the estimates add up past jit_above_cost at 30 days, and compiling costs more than it saves.)
    const items = (kind: ReportItemKind) => `(SELECT * FROM it WHERE it.kind = '${kind}') i`;
    const briefing = `(
WITH ${period},
rep AS (
  -- Each with the next report of its stream (one scope and target) in the period: where a blocker it was the last
  -- to list was resolved.
  SELECT r.id, r.scope, r.scope_target_id, r.generated_at,
         lead(r.generated_at) OVER (PARTITION BY r.scope, r.scope_target_id ORDER BY r.generated_at, r.id) AS next_at
  FROM reports r, p
  WHERE r.organization_id = ${organizationId} AND r.generated_at >= p.since_at AND r.generated_at <= p.until_at${about("r")}
),
newest AS (
  SELECT DISTINCT ON (scope, scope_target_id) id FROM rep ORDER BY scope, scope_target_id, generated_at DESC, id DESC
),
it AS (
  SELECT i.report_id, i.kind, i.position, i.scope, i.scope_target_id, i.generated_at, i.owner_key, i.member_id,
         i.text_key, i.days, left(i.owner, ${TEXT_MAX}) AS owner, left(i.text, ${TEXT_MAX}) AS text,
         left(i.reason, ${TEXT_MAX}) AS reason, left(i.unit, ${TEXT_MAX}) AS unit, left(i.status, ${TEXT_MAX}) AS status,
         CASE WHEN jsonb_typeof(i.value) = 'string' THEN to_jsonb(left(i.value #>> '{}', ${TEXT_MAX})) ELSE i.value END AS value,
         CASE WHEN jsonb_typeof(i.target) = 'string' THEN to_jsonb(left(i.target #>> '{}', ${TEXT_MAX})) ELSE i.target END AS target
  FROM report_items i, p
  WHERE i.organization_id = ${organizationId} AND i.kind IN (${KINDS})
    AND i.generated_at >= p.since_at AND i.generated_at <= p.until_at${about("i")}
),
bl0 AS (
  SELECT ${latest("i.text")} AS text, ${latest("i.owner")} AS owner, ${latest("i.member_id")} AS member_id,
         min(i.generated_at) AS first_at, max(i.generated_at) AS last_at,
         (array_agg(i.days ORDER BY i.generated_at, i.report_id))[1] AS days_at_first,
         (array_agg(i.report_id ORDER BY i.generated_at DESC, i.report_id DESC))[1:${LISTED_MAX}] AS report_ids,
         count(DISTINCT i.report_id) AS report_count,
         bool_or(i.report_id IN (SELECT id FROM newest)) AS open,
         bool_and(i.text_key IS NULL) AS textless,
         ${latest("r.next_at")} AS next_at,
         ${who(single)} AS who, coalesce(i.text_key, ${single}) AS what
  FROM ${items("blocker")} JOIN rep r ON r.id = i.report_id GROUP BY ${who(single)}, coalesce(i.text_key, ${single})
),
bl1 AS (
  SELECT b.*, CASE WHEN b.open THEN NULL ELSE b.next_at END AS resolved_at FROM bl0 b
),
bl2 AS (
  SELECT b.*, CASE WHEN b.textless THEN NULL ELSE
    (floor(extract(epoch FROM (CASE WHEN b.open THEN p.as_of ELSE coalesce(b.resolved_at, b.last_at) END) - b.first_at) / 86400))::int
    + coalesce(b.days_at_first, 0) END AS days_open
  FROM bl1 b, p
),
bl AS (
  SELECT b.*, row_number() OVER (
    ORDER BY b.open DESC, CASE WHEN b.open THEN b.days_open END DESC NULLS LAST, b.first_at,
             CASE WHEN NOT b.open THEN coalesce(b.resolved_at, b.last_at) END DESC, b.who, b.what
  ) AS n FROM bl2 b
),
si0 AS (
  SELECT ${latest("i.owner")} AS member, ${latest("i.member_id")} AS member_id, max(i.days) AS days,
         max(i.generated_at) AS reported_at, ${latest("i.report_id")} AS report_id, ${who(single)} AS who
  FROM ${items("silent")} WHERE i.report_id IN (SELECT id FROM newest) GROUP BY ${who(single)}
),
si1 AS (
  -- Absent on the period's last day: not silent. Absent within the streak: those days are not counted.
  SELECT s.member, s.member_id, s.reported_at, s.report_id, s.who,
         CASE WHEN s.days IS NULL THEN NULL ELSE coalesce(x.days, s.days) END AS days,
         CASE WHEN s.days IS NULL THEN NULL ELSE coalesce(x.since, s.reported_day - greatest(s.days - 1, 0)) END AS since
  FROM (SELECT s.*, (s.reported_at AT TIME ZONE p.tz)::date AS reported_day FROM si0 s, p) s
  CROSS JOIN p
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS days, min(d.day) AS since
    FROM (SELECT g::date AS day FROM generate_series(s.reported_day - greatest(s.days - 1, 0), s.reported_day, interval '1 day') g) d
    WHERE NOT ${absentOn("s.member_id", "d.day")}
  ) x ON s.days IS NOT NULL AND s.member_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM absences a WHERE a.organization_id = ${organizationId} AND a.member_id = s.member_id
      AND a.first_day <= s.reported_day AND a.last_day >= s.reported_day - greatest(s.days - 1, 0)
  )
  WHERE (s.member_id IS NULL OR NOT ${absentOn("s.member_id", "p.last_day")}) AND (x.days IS NULL OR x.days > 0)
),
si AS (
  SELECT s.*, ${dayText("s.since")} AS since_text,
         row_number() OVER (ORDER BY s.days DESC NULLS LAST, s.member, s.who) AS n
  FROM si1 s
),
sl0 AS (
  SELECT ${latest("i.text")} AS text, ${latest("i.owner")} AS owner, ${latest("i.member_id")} AS member_id,
         ${latest("i.days")} AS days_late,
         (array_agg(i.reason ORDER BY i.generated_at DESC, i.report_id DESC) FILTER (WHERE i.reason IS NOT NULL))[1] AS reason,
         min(i.generated_at) AS first_at, max(i.generated_at) AS last_at, ${who(single)} AS who
  FROM ${items("slipping")} GROUP BY ${who(single)}, coalesce(i.text_key, ${single})
),
sl AS (
  SELECT (array_agg(s.owner ORDER BY s.last_at DESC))[1] AS owner, (array_agg(s.member_id ORDER BY s.last_at DESC))[1] AS member_id,
         count(*) AS count,
         coalesce(json_agg(json_build_object('text', s.text, 'days_late', s.days_late, 'reason', s.reason,
           'first_seen_at', ${iso("s.first_at")}, 'last_seen_at', ${iso("s.last_at")})
           ORDER BY s.days_late DESC NULLS LAST, s.last_at DESC) FILTER (WHERE s.k <= ${n}), '[]'::json) AS items,
         row_number() OVER (ORDER BY count(*) DESC, max(s.days_late) DESC NULLS LAST, s.who) AS n
  FROM (SELECT s.*, row_number() OVER (PARTITION BY s.who ORDER BY s.days_late DESC NULLS LAST, s.last_at DESC) AS k FROM sl0 s) s
  GROUP BY s.who
),
kd AS (
  SELECT DISTINCT ON (i.text_key, (i.generated_at AT TIME ZONE p.tz)::date)
         i.text_key, (i.generated_at AT TIME ZONE p.tz)::date AS day, i.text, i.value, i.unit, i.target, i.status, i.generated_at
  FROM ${items("kpi")}, p WHERE i.text_key IS NOT NULL
  ORDER BY i.text_key, (i.generated_at AT TIME ZONE p.tz)::date, (i.scope = 'org') DESC, i.generated_at DESC, i.report_id DESC
),
kl AS (
  SELECT k.*, lag(k.status) OVER (PARTITION BY k.text_key ORDER BY k.day) AS previous,
         row_number() OVER (PARTITION BY k.text_key ORDER BY k.day) AS point
  FROM kd k
),
kp AS (
  SELECT (array_agg(k.text ORDER BY k.day DESC))[1] AS name, (array_agg(k.value ORDER BY k.day DESC))[1] AS value,
         (array_agg(k.unit ORDER BY k.day DESC))[1] AS unit, (array_agg(k.target ORDER BY k.day DESC))[1] AS target,
         (array_agg(k.status ORDER BY k.day DESC))[1] AS status, max(k.generated_at) AS reported_at,
         json_agg(json_build_object('day', ${dayText("k.day")}, 'value', k.value, 'status', k.status) ORDER BY k.day) AS series,
         coalesce(json_agg(json_build_object('day', ${dayText("k.day")}, 'from', k.previous, 'to', k.status) ORDER BY k.day)
           FILTER (WHERE k.point > 1 AND k.previous IS DISTINCT FROM k.status), '[]'::json) AS status_changes,
         k.text_key
  FROM kl k GROUP BY k.text_key
),
kp2 AS (
  SELECT k.*, row_number() OVER (
    ORDER BY CASE k.status WHEN 'off_track' THEN 0 WHEN 'at_risk' THEN 1 ELSE 2 END, k.name, k.text_key
  ) AS n FROM kp k
),
sh0 AS (
  SELECT ${latest("i.text")} AS text, ${latest("i.owner")} AS owner, ${latest("i.member_id")} AS member_id,
         max(i.generated_at) AS last_at, ${who("''")} AS who
  FROM ${items("shipped")} GROUP BY ${who("''")}, coalesce(i.text_key, ${single})
),
sh AS (
  SELECT (array_agg(s.owner ORDER BY s.last_at DESC))[1] AS owner, (array_agg(s.member_id ORDER BY s.last_at DESC))[1] AS member_id,
         count(*) AS count,
         coalesce((array_agg(s.text ORDER BY s.last_at DESC) FILTER (WHERE s.text IS NOT NULL))[1:${LISTED_MAX}], '{}') AS titles,
         row_number() OVER (ORDER BY count(*) DESC, (array_agg(s.owner ORDER BY s.last_at DESC))[1], s.who) AS n
  FROM sh0 s GROUP BY s.who
)
SELECT json_build_object('valid_until', (
  -- Until when this answer holds as it is (epoch milliseconds; null: for good, unless the version moves): an open
  -- blocker's days_open counts to now while the period has not ended, so the answer changes at the next whole day
  -- of any of them, and at the period's end.
  SELECT CASE WHEN p.as_of >= p.until_at THEN NULL ELSE floor(extract(epoch FROM least(p.until_at, (
    SELECT min(b.first_at + (floor(extract(epoch FROM p.as_of - b.first_at) / 86400) + 1) * interval '1 day')
    FROM bl2 b WHERE b.open AND NOT b.textless
  ))) * 1000) END FROM p), 'briefing', json_build_object(
  'period', (SELECT json_build_object('since', ${iso("p.since_at")}, 'until', ${iso("p.until_at")}, 'time_zone', p.tz,
                                      'reports', (SELECT count(*) FROM rep)) FROM p),
  'blockers', ${sectionSql(
    "bl",
    `json_build_object('text', s.text, 'owner', s.owner, 'member_id', s.member_id,
      'first_reported_at', ${iso("s.first_at")}, 'last_reported_at', ${iso("s.last_at")}, 'days_open', s.days_open,
      'resolved', NOT s.open, 'resolved_at', ${iso("s.resolved_at")}, 'report_ids', to_json(s.report_ids),
      'report_count', s.report_count)`,
    n,
  )},
  'silent', ${sectionSql(
    "si",
    `json_build_object('member', s.member, 'member_id', s.member_id, 'days', s.days, 'since', s.since_text,
      'reported_at', ${iso("s.reported_at")}, 'report_id', s.report_id)`,
    n,
  )},
  'slipping', ${sectionSql(
    "sl",
    `json_build_object('owner', s.owner, 'member_id', s.member_id, 'count', s.count, 'items', s.items)`,
    n,
  )},
  'kpis', ${sectionSql(
    "kp2",
    `json_build_object('name', s.name, 'value', s.value, 'unit', s.unit, 'target', s.target, 'status', s.status,
      'reported_at', ${iso("s.reported_at")}, 'series', s.series, 'status_changes', s.status_changes)`,
    n,
  )},
  'shipped', ${sectionSql(
    "sh",
    `json_build_object('owner', s.owner, 'member_id', s.member_id, 'count', s.count, 'titles', to_json(s.titles))`,
    n,
  )}
))
)`;
    // The briefing is computed only when the process holds no answer for the token still valid at now() (CASE
    // evaluates its ELSE only then); the token costs the organization's row.
    const token = `o.id::text || ':' || o.briefing_version || ':' || o.contacts_version || ':' || p.tz || ':'
      || floor(extract(epoch FROM p.since_at) * 1000) || ':' || floor(extract(epoch FROM p.until_at) * 1000)`;
    return `(
WITH ${period},
v AS (SELECT ${token} AS token FROM organizations o, p WHERE o.id = ${organizationId})
SELECT json_build_object('token', v.token, 'computed', CASE WHEN EXISTS (
    SELECT 1 FROM unnest(${held}::text[]) h
    WHERE split_part(h, '@', 1) = v.token
      AND (split_part(h, '@', 2) = '' OR split_part(h, '@', 2)::numeric > extract(epoch FROM now()) * 1000)
  ) THEN NULL ELSE ${briefing} END)
FROM v
)`;
  },
  result: computedSchema,
  // Never null: the statement always builds the object, an empty period included.
  toBody: (json, _args, known): BriefingComputed => {
    const { token, computed } = json!;
    return {
      token,
      validUntil: computed?.valid_until ?? null,
      briefing: computed ? scrubContactDetails(computed.briefing, known) : null,
    };
  },
});

/**
 * The briefing over the period (each absent bound: the last seven days in the zone), `limit` per section; served from
 * this process's answers while the organization's briefing version says nothing it read has changed.
 */
export function briefingRead({ limit, since, until, scope, scope_target_id }: BriefingQuery) {
  const args = [limit, since?.day, since?.instant, until?.day, until?.instant, scope, scope_target_id] as const;
  const query = JSON.stringify(args);
  const held = heldBriefings(query);
  return cachedBriefing(
    query,
    held,
    read.with(
      ...args,
      held.map((entry) => entry.held),
    ),
  );
}
