// The items of a report as rows (the report_items table), extracted once when a report is stored or replaced, so that
// a briefing (lib/data/briefing.ts) reads its period's items by organization, kind and date, never whole reports.
//
// Reports are written by people and tools, so an item names its fields in several ways. The vocabulary below is the
// one list of the names the briefing reads, per section, first match wins; docs/import-format.md shows it (checked
// by tests/unit/report-item-vocabulary.test.ts). An item with none of a field's names keeps it NULL: it is counted
// and shown, with no age where the age would come from it.
//
// The extraction is SQL built from the vocabulary, run by the statement that stores the reports and, for reports
// stored before, by the migration that made the table (prisma/migrations/20261216000000_report_items, which holds
// this SQL as it was then). Owners are matched to the roster in the same SQL: by id where the item carries one of
// the organization's member ids, else by name, folding case and accents, when exactly one member has that name.

/** The kinds of item, and the report section each comes from. */
export const REPORT_ITEM_SECTIONS = {
  blocker: "blockers",
  silent: "silent",
  slipping: "slipping",
  kpi: "kpi_status",
  shipped: "shipped",
} as const;

export type ReportItemKind = keyof typeof REPORT_ITEM_SECTIONS;

/** What the briefing reads of an item, and the names each may be written with, per kind, first match wins. */
export interface ItemFields {
  /** What the item is about: the blocker, the shipped title, the slipping item, the KPI's name. */
  text: readonly string[];
  /** The person, as written. */
  owner: readonly string[];
  /** The person's member id, when the writer knew it. */
  member_id: readonly string[];
  /** since_days (blocker), days_silent (silent), days_late (slipping). */
  days: readonly string[];
  reason: readonly string[];
  value: readonly string[];
  unit: readonly string[];
  target: readonly string[];
  status: readonly string[];
}

const TEXT = ["description", "title", "item", "text"] as const;
const OWNER = ["owner", "member", "name", "person"] as const;
const MEMBER_ID = ["member_id", "owner_id"] as const;
const NONE = [] as const;

export const REPORT_ITEM_VOCABULARY: Record<ReportItemKind, ItemFields> = {
  blocker: {
    text: TEXT,
    owner: ["owner", "member", "person"],
    member_id: MEMBER_ID,
    days: ["since_days", "days_open", "days"],
    reason: NONE,
    value: NONE,
    unit: NONE,
    target: NONE,
    status: NONE,
  },
  silent: {
    text: NONE,
    owner: OWNER,
    member_id: MEMBER_ID,
    days: ["days_silent", "days"],
    reason: NONE,
    value: NONE,
    unit: NONE,
    target: NONE,
    status: NONE,
  },
  slipping: {
    text: ["item", "title", "description", "text"],
    owner: ["owner", "member", "person"],
    member_id: MEMBER_ID,
    days: ["days_late", "days"],
    reason: ["reason", "why", "note"],
    value: NONE,
    unit: NONE,
    target: NONE,
    status: NONE,
  },
  kpi: {
    text: ["name", "metric", "kpi", "title"],
    owner: ["owner"],
    member_id: MEMBER_ID,
    days: NONE,
    reason: NONE,
    value: ["value", "current", "actual"],
    unit: ["unit", "units"],
    target: ["target", "goal"],
    status: ["status", "state"],
  },
  shipped: {
    text: ["title", "description", "item", "text"],
    owner: ["owner", "member", "person"],
    member_id: MEMBER_ID,
    days: NONE,
    reason: NONE,
    value: NONE,
    unit: NONE,
    target: NONE,
    status: NONE,
  },
};

/** Text folded for comparison: accents dropped (NFD, then the combining marks), lower case. */
function foldSql(text: string): string {
  return `lower(regexp_replace(normalize(${text}, NFD), '[\\u0300-\\u036f]', '', 'g'))`;
}

/** The key two spellings of one thing share: folded, punctuation and runs of spaces as one space, trimmed. */
function itemKeySql(text: string): string {
  return `nullif(btrim(regexp_replace(${foldSql(text)}, '[^[:alnum:]]+', ' ', 'g')), '')`;
}

/** The first of `names` the item has as a string or number, as text (empty text as absent). */
function textOf(names: readonly string[]): string {
  if (names.length === 0) return "NULL::text";
  const each = names.map(
    (name) =>
      `CASE WHEN jsonb_typeof(e.item->'${name}') IN ('string', 'number') THEN nullif(btrim(e.item->>'${name}'), '') END`,
  );
  return each.length === 1 ? each[0]! : `coalesce(${each.join(", ")})`;
}

/** The first of `names` the item has as a number or a string, as JSON (KPI values and targets keep their type). */
function jsonOf(names: readonly string[]): string {
  if (names.length === 0) return "NULL::jsonb";
  const each = names.map(
    (name) => `CASE WHEN jsonb_typeof(e.item->'${name}') IN ('string', 'number') THEN e.item->'${name}' END`,
  );
  return each.length === 1 ? each[0]! : `coalesce(${each.join(", ")})`;
}

/** The first of `names` the item has as a whole number of days, 0 to 100,000 (beyond is written as the bound). */
function daysOf(names: readonly string[]): string {
  if (names.length === 0) return "NULL::int";
  const each = names.map(
    (name) =>
      `CASE WHEN jsonb_typeof(e.item->'${name}') = 'number' THEN least(greatest(floor((e.item->>'${name}')::numeric), 0), 100000)::int END`,
  );
  return each.length === 1 ? each[0]! : `coalesce(${each.join(", ")})`;
}

/** One field of every kind, as a CASE on the item's kind. */
function perKind(field: keyof ItemFields, of: (names: readonly string[]) => string, empty: string): string {
  const arms = Object.entries(REPORT_ITEM_VOCABULARY)
    .filter(([, fields]) => fields[field].length > 0)
    .map(([kind, fields]) => `WHEN '${kind}' THEN ${of(fields[field])}`);
  return arms.length === 0 ? empty : `CASE e.kind ${arms.join(" ")} END`;
}

const UUID_TEXT = "'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'";

/** An item's owner matched to the roster by a lookup per item: the form the migration's backfill ran. */
const OWNER_LOOKUP = `coalesce(
         (SELECT m.id FROM roster m WHERE m.organization_id = f.organization_id
            AND m.id = CASE WHEN f.written_member_id ~ ${UUID_TEXT} THEN f.written_member_id::uuid END),
         (SELECT m.id FROM roster m WHERE m.organization_id = f.organization_id
            AND m.namesakes = 1 AND m.name_key = ${itemKeySql("f.owner")})
       )`;

/**
 * The same match as joins, which the code runs: a lookup per item scans the roster once per item, and a generated
 * organization report holds thousands of items over a roster of a thousand people (bench/generate.ts: minutes on
 * the embedded database). Each join finds at most one member: ids are unique, and a name only when unique, so the
 * rows written are the lookup's.
 */
const OWNER_JOINS = `
LEFT JOIN roster by_id ON by_id.organization_id = f.organization_id
  AND by_id.id = CASE WHEN f.written_member_id ~ ${UUID_TEXT} THEN f.written_member_id::uuid END
LEFT JOIN roster by_name ON by_name.organization_id = f.organization_id
  AND by_name.namesakes = 1 AND by_name.name_key = ${itemKeySql("f.owner")}`;

/**
 * The statement that writes the items of the reports `reportsWhere` selects (an SQL condition on `reports r`), whose
 * organizations `rosterWhere` selects (a condition on `members m`: the rosters their owners are matched against).
 * The caller deletes their old items first when replacing. `joined`: owners matched by joins (what the code runs),
 * else by the per-item lookup the migration's backfill holds.
 */
export function reportItemsInsertSql(reportsWhere: string, rosterWhere: string, joined = false): string {
  const sections = Object.entries(REPORT_ITEM_SECTIONS)
    .map(([kind, section]) => `('${kind}', '${section}')`)
    .join(", ");
  return `WITH roster AS (
  SELECT m.id, m.organization_id, ${itemKeySql("m.name")} AS name_key,
         count(*) OVER (PARTITION BY m.organization_id, ${itemKeySql("m.name")}) AS namesakes
  FROM members m WHERE ${rosterWhere}
),
e AS (
  SELECT r.organization_id, r.id AS report_id, r.scope, r.scope_target_id, r.generated_at, s.kind,
         (i.position - 1)::int AS position, i.item
  FROM reports r
  CROSS JOIN (VALUES ${sections}) AS s(kind, section)
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(r.content->s.section) = 'array' THEN r.content->s.section ELSE '[]'::jsonb END
  ) WITH ORDINALITY AS i(item, position)
  WHERE (${reportsWhere}) AND jsonb_typeof(i.item) = 'object'
),
f AS (
  SELECT e.*,
         ${perKind("text", textOf, "NULL::text")} AS text,
         ${perKind("owner", textOf, "NULL::text")} AS owner,
         ${perKind("member_id", textOf, "NULL::text")} AS written_member_id,
         ${perKind("days", daysOf, "NULL::int")} AS days,
         ${perKind("reason", textOf, "NULL::text")} AS reason,
         ${perKind("value", jsonOf, "NULL::jsonb")} AS value,
         ${perKind("unit", textOf, "NULL::text")} AS unit,
         ${perKind("target", jsonOf, "NULL::jsonb")} AS target,
         ${perKind("status", textOf, "NULL::text")} AS status
  FROM e
)
INSERT INTO report_items (organization_id, report_id, kind, position, scope, scope_target_id, generated_at,
  owner, owner_key, member_id, text, text_key, days, reason, value, unit, target, status)
SELECT f.organization_id, f.report_id, f.kind, f.position, f.scope, f.scope_target_id, f.generated_at,
       f.owner, ${itemKeySql("f.owner")},
       ${joined ? "coalesce(by_id.id, by_name.id)" : OWNER_LOOKUP},
       f.text, ${itemKeySql("f.text")}, f.days, f.reason, f.value, f.unit, f.target, lower(f.status)
FROM f${joined ? OWNER_JOINS : ""}`;
}

/**
 * The statements that write the items of one organization's reports (`organizationId` and `reportIds`, SQL of types
 * uuid and uuid[]; every report of the organization when `reportIds` is undefined), their old items deleted first.
 */
function reportItemsRefreshSql(organizationId: string, reportIds?: string): [string, string] {
  const reports = `r.organization_id = ${organizationId}${reportIds ? ` AND r.id = ANY(${reportIds})` : ""}`;
  const items = `organization_id = ${organizationId}${reportIds ? ` AND report_id = ANY(${reportIds})` : ""}`;
  return [
    `DELETE FROM report_items WHERE ${items}`,
    reportItemsInsertSql(reports, `m.organization_id = ${organizationId}`, true),
  ];
}

/** Runs one statement with positional values (Prisma's $executeRawUnsafe, or a test's own runner). */
type Execute = (sql: string, ...values: unknown[]) => Promise<unknown>;

/**
 * Writes the items of one organization's reports (all of them when `reportIds` is undefined), in the caller's
 * transaction, after the reports themselves were stored or replaced.
 */
export async function writeReportItems(execute: Execute, organizationId: string, reportIds?: string[]) {
  if (reportIds?.length === 0) return;
  const statements = reportItemsRefreshSql("$1::uuid", reportIds ? "$2::uuid[]" : undefined);
  for (const sql of statements) await execute(sql, organizationId, ...(reportIds ? [reportIds] : []));
}
