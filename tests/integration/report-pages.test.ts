import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { hashPresentedKey, verifyKeyHash } from "@/lib/admission/verify-api-key";
import { getDb } from "@/lib/db";
import { createDatabaseSource } from "@/lib/mcp/database-source";
import { TOOLS, callTool } from "@/lib/mcp/tools";
import { CURSOR_RULE } from "@/lib/operations/parameters";
import type { ReportScope } from "@/lib/schemas/reports";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import {
  createHistoryOrg,
  expectedOrder,
  historyReport,
  withHistoryOrg,
  type HistoryOrg,
  type HistoryReport,
} from "../helpers/history-org";

// Walking the pages of GET /api/v1/reports and MCP's list_reports, for any reports and any filters: the walk
// yields exactly the reports the filters select, in the list's order (generated_at, then id, descending), once
// each, also while reports arrive between pages. The expected set is computed here, in JavaScript, from what
// each filter means in the contract, not from the server's SQL. Every run has an organization of its own
// (deleted afterwards), so the expected set is known exactly and each run's key has a fresh rate-limit budget.

const DAY_MS = 86_400_000;

// Few instants, so many reports share one (the id breaks the tie and a page may end inside a tie), on the edges
// of UTC days (a date filter takes its day from the first millisecond to the last), plus any instant around them.
const DAYS = ["2026-11-03", "2026-11-04", "2026-11-05"];
const CLOCKS = ["00:00:00.000", "00:00:00.001", "09:30:00.000", "23:59:59.999"];
const SHARED_INSTANTS = DAYS.flatMap((day) => CLOCKS.map((clock) => Date.parse(`${day}T${clock}Z`)));
const AROUND = { min: Date.parse("2026-11-02T12:00:00.000Z"), max: Date.parse("2026-11-06T12:00:00.000Z") };
const instantMs = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SHARED_INSTANTS) },
  { weight: 1, arbitrary: fc.integer(AROUND) },
);

// q's words. PostgreSQL matches q on English stems; the model here matches whole words. The two agree because
// these are plain English words that are no stop words, whose stems are distinct from each other and from every
// other word of a report's text (the headline's "Report of <instant>", the filler "routine").
const VOCABULARY = ["gripper", "firmware", "vendor", "invoice", "camera", "harbor"];

interface GeneratedReport {
  id: string;
  scope: ReportScope;
  /** Which of the organization's two leads (scope lead) or two members (scope member) it is about. */
  who: 0 | 1;
  words: string[];
  capitalized: boolean;
}

const generatedReport = fc.record({
  id: fc.uuid(),
  scope: fc.constantFrom<ReportScope>("org", "lead", "member"),
  who: fc.constantFrom<0 | 1>(0, 1),
  words: fc.shuffledSubarray(VOCABULARY, { maxLength: 4 }),
  capitalized: fc.boolean(),
});
/** A report's identity besides its id: one scope, target and instant is one report, so no two share it. */
const identityOf = (r: Pick<GeneratedReport, "scope" | "who">, ms: number) =>
  `${r.scope}|${r.scope === "org" ? "" : r.who}|${ms}`;

const reportsAt = fc
  .uniqueArray(fc.tuple(generatedReport, instantMs), { selector: ([r]) => r.id, minLength: 10, maxLength: 30 })
  .map((generated) => {
    const seen = new Set<string>();
    return generated.filter(([r, ms]) => {
      const identity = identityOf(r, ms);
      if (seen.has(identity)) return false;
      seen.add(identity);
      return true;
    });
  });

const storedIdentity = (r: HistoryReport) => `${r.scope}|${r.scope_target_id}|${r.generated_at}`;

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function toReport(org: HistoryOrg, r: GeneratedReport, ms: number): HistoryReport {
  const people = r.scope === "lead" ? org.members.slice(0, 2) : org.members.slice(2, 4);
  const text =
    r.words.length === 0 ? "routine" : r.capitalized ? r.words.map(capitalize).join(", ") : r.words.join(" ");
  return historyReport({
    id: r.id,
    scope: r.scope,
    scope_target_id: r.scope === "org" ? null : people[r.who]!.id,
    generated_at: new Date(ms).toISOString(),
    text,
  });
}

// Period bounds as a client writes them: a date, or a date-time with a zone at the precision it likes. The model
// keeps what the text means (the day, or the instant it was made from), never what a parser makes of the text.
type Bound = { text: string; day: string } | { text: string; ms: number };

const ZONES: [string, number][] = [
  ["Z", 0],
  ["+00:00", 0],
  ["+05:30", 330],
  ["-03:30", -210],
  ["-08:00", -480],
  ["+14:00", 840],
];

const dateBound = fc.constantFrom("2026-11-02", ...DAYS, "2026-11-06").map((day): Bound => ({ text: day, day }));
const dateTimeBound = fc
  .tuple(instantMs, fc.constantFrom(...ZONES), fc.constantFrom("millisecond", "second", "minute"))
  .map(([ms, [zone, offsetMinutes], precision]): Bound => {
    const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
    const cut =
      precision === "minute" && ms % 60_000 === 0 ? 16 : precision !== "millisecond" && ms % 1000 === 0 ? 19 : 23;
    return { text: `${local.slice(0, cut)}${zone}`, ms };
  });
const bound = fc.oneof(dateBound, dateTimeBound);

const sinceMs = (b: Bound) => ("ms" in b ? b.ms : Date.parse(`${b.day}T00:00:00.000Z`));
const untilMs = (b: Bound) => ("ms" in b ? b.ms : Date.parse(`${b.day}T00:00:00.000Z`) + DAY_MS - 1);

/** A member id nobody in the organization has. */
const STRANGER = "0f0f0f0f-0000-4000-8000-000000000000";

// Each filter is left out more often than not, so most walks still select enough reports for several pages.
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
const anyScope = fc.constantFrom<ReportScope>("org", "lead", "member");
const member = fc.constantFrom<0 | 1 | 2 | 3>(0, 1, 2, 3);
const anyone = fc.oneof(member, fc.constant("stranger" as const));
// Whom the reports are about: a scope, a person (members[0..3], or an id of nobody), both as they fit together
// (a lead's reports are scope lead), or both in any combination (mostly selecting nothing).
const about = fc.oneof(
  anyScope.map((scope) => ({ scope, target: undefined })),
  anyone.map((target) => ({ scope: undefined, target })),
  member.map((target) => ({ scope: target < 2 ? ("lead" as const) : ("member" as const), target })),
  fc.record({ scope: anyScope, target: anyone }),
);

const generatedFilters = fc
  .record({
    since: sometimes(bound),
    until: sometimes(bound),
    about: sometimes(about),
    upperCaseTarget: fc.boolean(),
    q: sometimes(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...VOCABULARY).map((word) => [word]) },
        { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 2 }) },
      ),
    ),
  })
  .map(({ about: whom, ...f }) => {
    const filters = { ...f, scope: whom?.scope, target: whom?.target };
    // since after until is a 400 (tested in report-history.test.ts); swapped, the bounds always make a period.
    if (f.since && f.until && sinceMs(f.since) > untilMs(f.until))
      return { ...filters, since: f.until, until: f.since };
    return filters;
  });
type GeneratedFilters = typeof generatedFilters extends fc.Arbitrary<infer F> ? F : never;

// Mostly small pages, so a walk has many of them and pages end inside ties.
const pageLimit = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 7, max: 50 }) },
);

const smallPageLimit = fc.integer({ min: 1, max: 5 });

/** The list's arguments, as REST's query and MCP's tool arguments both name them. */
interface ListArgs {
  limit: number;
  since?: string;
  until?: string;
  scope?: ReportScope;
  scope_target_id?: string;
  q?: string;
}

function targetId(org: HistoryOrg, f: GeneratedFilters): string | undefined {
  if (f.target === undefined) return undefined;
  return f.target === "stranger" ? STRANGER : org.members[f.target]!.id;
}

function listArgs(org: HistoryOrg, f: GeneratedFilters, limit: number): ListArgs {
  const target = targetId(org, f);
  const args: ListArgs = {
    limit,
    since: f.since?.text,
    until: f.until?.text,
    scope: f.scope,
    scope_target_id: f.upperCaseTarget ? target?.toUpperCase() : target,
    q: f.q?.join(" "),
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as ListArgs;
}

/** Whether the contract says the filters select this report. */
function selects(org: HistoryOrg, f: GeneratedFilters): (r: HistoryReport) => boolean {
  const target = targetId(org, f);
  return (r) => {
    const at = Date.parse(r.generated_at);
    const words = new Set(r.text.toLowerCase().split(/[^a-z]+/));
    return (
      (f.since === undefined || at >= sinceMs(f.since)) &&
      (f.until === undefined || at <= untilMs(f.until)) &&
      (f.scope === undefined || r.scope === f.scope) &&
      (target === undefined || r.scope_target_id === target) &&
      (f.q === undefined || f.q.every((word) => words.has(word)))
    );
  };
}

interface Summary {
  id: string;
  generated_at: string;
}

/** One page as both surfaces answer it. */
interface Page {
  reports: Summary[];
  count: number;
  next_cursor: string | null;
}

async function restPage(org: HistoryOrg, args: ListArgs, cursor: string | null): Promise<Page> {
  const query = new URLSearchParams(
    Object.entries({ ...args, ...(cursor ? { cursor } : {}) }).map(([k, v]) => [k, String(v)]),
  );
  const res = await call(listReports, `/api/v1/reports?${query}`, { headers: bearer(org.key) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const link = res.headers.get("link");
  if (res.body.next_cursor === null) expect(link).toBeNull();
  else expect(link).toMatch(new RegExp(`[?&]cursor=${res.body.next_cursor.replaceAll(".", "\\.")}>; rel="next"$`));
  return res.body as Page;
}

const listReportsTool = TOOLS.find((t) => t.name === "list_reports")!;

async function mcpPager(org: HistoryOrg) {
  const source = createDatabaseSource((await verifyKeyHash(hashPresentedKey(org.key))).key);
  return async (args: ListArgs, cursor: string | null): Promise<Page> => {
    const result = await callTool(listReportsTool, source, { ...args, ...(cursor ? { cursor } : {}) });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as unknown as Page;
  };
}

/**
 * Follows next_cursor from the first page to the last, and returns every report id seen in order. Every page but
 * the last is full. `between` runs after each page that has a next one, with that page's last report.
 */
async function walk(
  page: (args: ListArgs, cursor: string | null) => Promise<Page>,
  args: ListArgs,
  maxPages: number,
  between?: (last: Summary) => Promise<void>,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 1; ; pages++) {
    expect(pages, "more pages than reports").toBeLessThanOrEqual(maxPages);
    const { reports, count, next_cursor } = await page(args, cursor);
    expect(count).toBe(reports.length);
    ids.push(...reports.map((r) => r.id));
    if (next_cursor === null) return ids;
    expect(reports).toHaveLength(args.limit);
    await between?.(reports.at(-1)!);
    cursor = next_cursor;
  }
}

const restPager = (org: HistoryOrg) => (args: ListArgs, cursor: string | null) => restPage(org, args, cursor);

// Bounded for a 2-core machine: each run makes and deletes an organization and walks every page.
const RUNS = { walk: 80, arrivals: 60, mcp: 30 };
// A failing property shrinks for a while (each step a new organization): it stops in time to report its
// smallest counterexample so far, and a run cut short before all its runs is a failure, not a quiet pass.
const BOUNDED = { interruptAfterTimeLimit: 45_000, markInterruptAsFailure: true };
const PROPERTY_TIMEOUT = 60_000;

function holds<Ts>(property: fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  return fc.assert(property, { numRuns, ...BOUNDED });
}

/** Imports the generated reports into an organization of its own, checks, then deletes the organization. */
function onOwnOrg(generated: [GeneratedReport, number][], check: (org: HistoryOrg) => Promise<void>): Promise<void> {
  return withHistoryOrg(async (org) => {
    await org.add(generated.map(([r, ms]) => toReport(org, r, ms)));
    await check(org);
  });
}

/**
 * Checks, for any reports, filters and page limit, that a walk of the reports the filters select (`expected`, in
 * the list's order) holds up; each run in an organization of its own.
 */
function forAnyWalk(
  numRuns: number,
  check: (org: HistoryOrg, args: ListArgs, expected: string[], maxPages: number) => Promise<void>,
): Promise<void> {
  return holds(
    fc.asyncProperty(reportsAt, generatedFilters, pageLimit, (generated, filters, limit) =>
      onOwnOrg(generated, (org) =>
        check(
          org,
          listArgs(org, filters, limit),
          expectedOrder(org.reports, selects(org, filters)),
          generated.length + 1,
        ),
      ),
    ),
    numRuns,
  );
}

describe("walking every page", () => {
  // Opens the database (seconds on first use) before any property's time runs.
  beforeAll(() => getDb());

  it(
    "yields exactly the filtered set, in the list's order, once each, for any reports, filters and limit",
    async () => {
      await forAnyWalk(RUNS.walk, async (org, args, expected, maxPages) => {
        expect(await walk(restPager(org), args, maxPages)).toEqual(expected);
      });
    },
    PROPERTY_TIMEOUT,
  );

  // A report arriving between pages is newer than the page's last report (already passed: never seen), older
  // (still ahead: seen in its place), or at the same instant (the id decides which). Reports that were there at
  // the first page are all seen, once; nothing is seen twice.
  const arrival = fc.record({
    report: generatedReport,
    place: fc.oneof(
      fc.record({ side: fc.constant(1), ms: fc.integer({ min: 1, max: 2 * DAY_MS }) }),
      fc.record({ side: fc.constant(-1), ms: fc.integer({ min: 1, max: 2 * DAY_MS }) }),
      fc.constant({ side: 0, ms: 0 }),
    ),
  });
  const arrivals = fc.array(fc.array(arrival, { minLength: 1, maxLength: 3 }), { minLength: 3, maxLength: 8 });

  it(
    "stays exact while reports arrive between pages, newer and older than the current position",
    async () => {
      await holds(
        fc.asyncProperty(reportsAt, generatedFilters, smallPageLimit, arrivals, (generated, filters, limit, batches) =>
          onOwnOrg(generated, async (org) => {
            const existing = [...org.reports];
            const ahead: HistoryReport[] = [];
            let batch = 0;
            const arrive = async (last: Summary) => {
              const known = new Set(org.reports.flatMap((r) => [r.id, storedIdentity(r)]));
              const fresh: HistoryReport[] = [];
              for (const { report, place } of batches[batch++] ?? []) {
                const arriving = toReport(org, report, Date.parse(last.generated_at) + place.side * place.ms);
                // Shrinking makes ids alike, and an arrival may land on a stored report's scope, target and
                // instant: either is left out rather than imported as a second report.
                if (known.has(report.id) || known.has(storedIdentity(arriving))) continue;
                known.add(report.id).add(storedIdentity(arriving));
                fresh.push(arriving);
              }
              if (fresh.length === 0) return;
              await org.add(fresh);
              ahead.push(...fresh.filter((r) => comesLater(r, last)));
            };
            const maxPages = generated.length + batches.flat().length + 1;
            const ids = await walk(restPager(org), listArgs(org, filters, limit), maxPages, arrive);
            expect(ids).toEqual(expectedOrder([...existing, ...ahead], selects(org, filters)));
          }),
        ),
        RUNS.arrivals,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "through MCP's list_reports yields the same ids as through REST",
    async () => {
      await forAnyWalk(RUNS.mcp, async (org, args, expected, maxPages) => {
        const rest = await walk(restPager(org), args, maxPages);
        const mcp = await walk(await mcpPager(org), args, maxPages);
        expect(mcp).toEqual(rest);
        expect(rest).toEqual(expected);
      });
    },
    PROPERTY_TIMEOUT,
  );
});

/** Whether `r` comes later in the list than `position` (the list is by generated_at, then id, descending). */
function comesLater(r: HistoryReport, position: Summary): boolean {
  return r.generated_at === position.generated_at ? r.id < position.id : r.generated_at < position.generated_at;
}

describe("cursors are bound to their organization and position", () => {
  let a: HistoryOrg;
  let b: HistoryOrg;

  beforeAll(async () => {
    [a, b] = await Promise.all([createHistoryOrg(), createHistoryOrg()]);
    const reports = () =>
      Array.from({ length: 6 }, (_, i) => historyReport({ generated_at: `2026-11-0${i + 1}T17:00:00.000Z` }));
    await Promise.all([a.add(reports()), b.add(reports())]);
  });
  afterAll(() => Promise.all([a.remove(), b.remove()]));

  const firstCursor = async (org: HistoryOrg) => (await restPage(org, { limit: 2 }, null)).next_cursor!;
  const rest = (org: HistoryOrg, cursor: string) =>
    call(listReports, `/api/v1/reports?limit=2&cursor=${encodeURIComponent(cursor)}`, { headers: bearer(org.key) });
  const mcp = async (org: HistoryOrg, cursor: string) => {
    const source = createDatabaseSource((await verifyKeyHash(hashPresentedKey(org.key))).key);
    return callTool(listReportsTool, source, { limit: 2, cursor });
  };

  /** The cursor's payload with some fields replaced, re-encoded, under the cursor's own signature. */
  function reencoded(cursor: string, edit: (fields: unknown[]) => unknown[]): string {
    const [payload, signature] = cursor.split(".") as [string, string];
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
    return `${Buffer.from(JSON.stringify(edit(fields))).toString("base64url")}.${signature}`;
  }

  async function expectRefused(org: HistoryOrg, cursor: string) {
    const res = await rest(org, cursor);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_parameter", message: CURSOR_RULE });
    expect(await mcp(org, cursor)).toMatchObject({
      isError: true,
      content: [{ text: `invalid_parameter: ${CURSOR_RULE}` }],
    });
  }

  it("serves the next page to the organization the cursor was made for", async () => {
    const cursor = await firstCursor(a);
    const res = await rest(a, cursor);
    expect(res.status).toBe(200);
    expect(res.body.reports.map((r: Summary) => r.id)).toEqual(expectedOrder(a.reports).slice(2, 4));
    expect((await mcp(a, cursor)).isError).toBeFalsy();
  });

  it("refuses organization A's cursor to organization B's key: 400 on REST, invalid_parameter on MCP", async () => {
    await expectRefused(b, await firstCursor(a));
  });

  it("refuses a cursor whose payload was re-encoded with another position under the old signature", async () => {
    const cursor = await firstCursor(a);
    const [, , , third] = expectedOrder(a.reports).map((id) => a.reports.find((r) => r.id === id)!);
    const moved = reencoded(cursor, ([version, org, filters]) => [
      version,
      org,
      filters,
      third!.generated_at,
      third!.id,
    ]);
    expect(moved).not.toBe(cursor);
    await expectRefused(a, moved);
  });

  it("refuses a cursor re-encoded for another organization under the old signature to that organization", async () => {
    const cursor = await firstCursor(a);
    const forged = reencoded(cursor, ([version, , ...rest]) => [version, b.organization.id, ...rest]);
    await expectRefused(b, forged);
  });
});
