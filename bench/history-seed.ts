// The benchmark organization's report history: 100,000 reports written by one set-based INSERT … SELECT
// generate_series, so seeding takes seconds, not the minutes that row-by-row writes would.
//
// Each day of the history has the same number of reports, spread over the day: one in ten about the whole
// organization, two in ten about a lead, the rest about a member. Their content is one of 4,096 variants
// built here, each with its search text made by the application's own reportSearchText, as
// lib/data/import-reports.ts writes it. The variants' words are common (the verbs, reasons and KPI names
// below; "customer" is in most reports) or rare (each variant's code name, in 1 report of 4,096).
import type { KnownContacts } from "@/lib/data/known-contact-matcher";
import { reportSearchText, SEARCH_TEXT_VERSION } from "@/lib/data/report-search-text";
import type { ReportContent } from "@/lib/schemas/reports";

/** Runs one statement with its parameters (on a connection that allows a long statement). */
export type Execute = (sql: string, values: unknown[]) => Promise<unknown>;

export interface HistoryPlan {
  organizationId: string;
  reports: number;
  /** Days the history covers, ending with `newestDay`. */
  days: number;
  /** Midnight UTC of the newest day, as an ISO instant. */
  newestDay: string;
  /** Everyone who owns items in the reports, with their names. */
  owners: { id: string; name: string }[];
  /** Targets of lead-scoped reports. */
  leads: string[];
  /** Targets of member-scoped reports. */
  members: string[];
  /** The organization's own contact details, which search text leaves out. */
  contacts: KnownContacts;
}

const PROJECTS = [
  "gripper v3",
  "fleet telemetry",
  "billing migration",
  "customer portal",
  "warehouse pilot",
  "search indexing",
  "onboarding flow",
  "mobile app",
  "payments retry",
  "sensor calibration",
  "data export",
  "access control",
  "release pipeline",
  "inventory sync",
  "route planner",
  "support inbox",
  "pricing page",
  "audit log",
  "firmware update",
  "load balancer",
];
const OPENERS = [
  "Steady progress",
  "Busy day",
  "Quiet day",
  "Release day",
  "Crunch before the demo",
  "Mixed results",
  "Good momentum",
  "Firefighting",
];
const VERBS = ["Released", "Shipped", "Merged", "Deployed", "Finished", "Launched", "Rolled out", "Closed"];
const REASONS = [
  "scope grew after review",
  "waiting on the vendor",
  "flaky integration tests",
  "design changes requested by the customer",
  "blocked by the security review",
  "key engineer out sick",
  "dependency upgrade broke the build",
  "customer asked for changes",
  "estimate was too optimistic",
  "priorities shifted to the outage",
];
const BLOCKERS = [
  "CI runners saturated since Monday",
  "staging database is down",
  "waiting for legal approval",
  "missing API credentials from the partner",
  "hardware shipment delayed at the border",
  "on-call load too high",
  "test lab closed for maintenance",
  "license renewal pending",
];
const KPIS = [
  { name: "weekly active robots", unit: "robots" },
  { name: "open bugs", unit: "bugs" },
  { name: "deploys per day", unit: "deploys" },
  { name: "customer tickets", unit: "tickets" },
  { name: "uptime", unit: "percent" },
  { name: "lead time", unit: "days" },
];
const KPI_STATUSES = ["on_track", "at_risk", "off_track"];
// Code names of three syllables, 16 × 16 × 16 = 4,096: one per variant, so each is a rare word.
const SYLLABLES = [
  ["zor", "vel", "kam", "tri", "bex", "lun", "dra", "mir", "qua", "fen", "pol", "sar", "gri", "ost", "nib", "yul"],
  ["va", "do", "ni", "ta", "ri", "bo", "ke", "za", "pu", "ge", "lo", "tu", "fa", "we", "ju", "hi"],
  ["k", "r", "x", "l", "m", "s", "n", "th", "p", "d", "sk", "v", "z", "nd", "g", "b"],
];

/** How many distinct contents the history cycles through. */
const VARIANTS = 4096;

/** A word in most reports' text, for the search point of the bench ("customers" and "customs" match it too). */
export const COMMON_WORD = "customer";

/** A small deterministic generator (mulberry32), so every bench seeds the same words. */
function generator(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

function codeName(variant: number): string {
  const [a, b, c] = [variant >> 8, (variant >> 4) & 15, variant & 15];
  return SYLLABLES[0]![a]! + SYLLABLES[1]![b]! + SYLLABLES[2]![c]!;
}

/** One report's content as a report tool writes it: contact details included (the API strips them). */
function variantContent(variant: number, owners: HistoryPlan["owners"], next: (n: number) => number): ReportContent {
  const of = <T>(list: readonly T[]) => list[next(list.length)]!;
  const owner = () => of(owners);
  const shipped = Array.from({ length: 1 + next(3) }, (_, i) => {
    const who = owner();
    // The variant's code name on its first item: a word that only this variant's reports contain.
    const title = `${of(VERBS)} ${of(PROJECTS)}${i === 0 ? ` (${codeName(variant)})` : ""}`;
    return { title, owner: who.name, member_id: who.id };
  });
  const slipping = Array.from({ length: 1 + next(2) }, () => ({
    item: of(PROJECTS),
    owner: owner().name,
    days_late: 1 + next(6),
    reason: of(REASONS),
  }));
  const blocked = next(3) === 0;
  const silent = owner();
  const firstKpi = next(KPIS.length);
  const kpis = [KPIS[firstKpi]!, KPIS[(firstKpi + 1 + next(KPIS.length - 1)) % KPIS.length]!];
  return {
    headline:
      `${of(OPENERS)} on ${of(PROJECTS)}: ${shipped.length} shipped, ${slipping.length} slipping` +
      (blocked ? ", 1 blocker" : ""),
    kpi_status: kpis.map((kpi) => ({ ...kpi, value: 10 + next(1000), target: 500, status: of(KPI_STATUSES) })),
    shipped,
    silent: [
      {
        member: silent.name,
        member_id: silent.id,
        days_silent: 1 + next(4),
        email: "quiet@bench.example",
        slack_id: "UQUIET01",
      },
    ],
    slipping,
    blockers: blocked ? [{ description: of(BLOCKERS), owner: owner().name, since_days: 1 + next(9) }] : [],
  };
}

/** The history's contents, each with its search text as the application writes it. */
function historyVariants(owners: HistoryPlan["owners"], contacts: KnownContacts, count = VARIANTS) {
  const next = generator(13);
  return Array.from({ length: count }, (_, variant) => {
    const content = variantContent(variant, owners, next);
    return { content, search_text: reportSearchText(content, contacts) };
  });
}

// One statement; the plan and the variants arrive as JSON parameters, so it runs alike through pg and PGlite.
// n numbers the reports from the newest (0) back, and rows are written oldest first, as time would have.
// A report's variant is a hash of n, so neighbouring reports (and the scopes of one day) differ.
const INSERT_HISTORY = `
WITH variant AS (
  SELECT (i - 1)::int AS k, v->'content' AS content, v->>'search_text' AS search_text
  FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS variants(v, i)
),
plan AS (
  SELECT (c->>'organizationId')::uuid AS organization_id, (c->>'reports')::int AS reports,
    (c->>'perDay')::int AS per_day, (c->>'newestDay')::timestamptz AS newest_day,
    (c->>'searchTextVersion')::int AS search_text_version,
    ARRAY(SELECT jsonb_array_elements_text(c->'leads')) AS leads,
    ARRAY(SELECT jsonb_array_elements_text(c->'members')) AS members
  FROM (SELECT $1::jsonb AS c) AS config
),
numbered AS (
  SELECT plan.*, n, n / per_day AS day, n % per_day AS slot,
    ((hashint8extended(n, 7) & 2147483647) % (SELECT count(*) FROM variant))::int AS k
  FROM plan, generate_series(plan.reports - 1, 0, -1) AS n
)
INSERT INTO reports (organization_id, scope, scope_target_id, generated_at, headline, content, search_text,
  search_text_version)
SELECT organization_id,
  (CASE WHEN slot % 10 = 0 THEN 'org' WHEN slot % 10 < 3 THEN 'lead' ELSE 'member' END)::report_scope,
  (CASE WHEN slot % 10 = 0 THEN NULL
    WHEN slot % 10 < 3 THEN leads[1 + (day + slot) % cardinality(leads)]
    ELSE members[1 + (day * 7 + slot) % cardinality(members)] END)::uuid,
  newest_day - make_interval(days => day) + make_interval(secs => (per_day - 1 - slot) * (86000.0 / per_day)),
  variant.content->>'headline', variant.content, variant.search_text, search_text_version
FROM numbered JOIN variant USING (k)`;

/** Writes the plan's reports. */
export async function insertReportHistory(execute: Execute, plan: HistoryPlan): Promise<void> {
  const config = {
    organizationId: plan.organizationId,
    reports: plan.reports,
    perDay: Math.ceil(plan.reports / plan.days),
    newestDay: plan.newestDay,
    leads: plan.leads,
    members: plan.members,
    searchTextVersion: SEARCH_TEXT_VERSION,
  };
  await execute(INSERT_HISTORY, [JSON.stringify(config), JSON.stringify(historyVariants(plan.owners, plan.contacts))]);
}
