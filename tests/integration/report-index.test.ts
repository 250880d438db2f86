import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { hashPresentedKey, verifyKeyHash } from "@/lib/admission/verify-api-key";
import { SEARCH_TEXT_VERSION } from "@/lib/data/report-search-text";
import { getDb, getSql } from "@/lib/db";
import { createDatabaseSource } from "@/lib/mcp/database-source";
import { TOOLS, callTool } from "@/lib/mcp/tools";
import { encodeCursor } from "@/lib/operations/cursor-signature";
import { reportPaging } from "@/lib/operations/list-reports";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";
import { bearer } from "../helpers/keys";
import { call } from "../helpers/request";
import { captureStatements, type SentStatement } from "../helpers/statements";

// Issue 13: each filter of the report list, and a page deep in a walk, reads the organization's reports through
// an index, never by scanning them. Checked on the statements the API really sends (captured at the driver
// around a REST request and an MCP tool call), with EXPLAIN ANALYZE on a history of realistic size: two years of
// one organization's reports in every scope about 40 members, beside another organization's.
//
// The API sends its reads as named prepared statements, one per combination of filters: PostgreSQL plans the first
// executions with their values (a custom plan), then may switch to one generic plan for all values. Both are checked.

const REPORTS = 20_000;
const OTHER_REPORTS = 4_000;
const NEWEST = "2026-11-20T18:00:00.000Z";
const SPAN_MS = 730 * 86_400_000;
const PAGE = 50;
const DEEP = 10_000;

// The common word is in every other report; the rare one in four of the organization's 20,000.
const COMMON_WORD = "firmware";
const RARE_WORD = "zeppelin";

// One set-based INSERT: report i is i steps of the span older than the newest; one in ten is about the whole
// organization, two about a lead, seven about a member, each lead and member in turn.
// Written as the application writes search text, with its rules' version: a report under an older version would be
// rewritten by the start-up backfill (run by other files in this worker), and 20,000 updates leave the search index
// and the planner's statistics in a state no deployment keeps for long.
const SEED = `INSERT INTO reports (organization_id, scope, scope_target_id, generated_at, headline, content, search_text,
    search_text_version)
  SELECT $1::uuid, r.scope::report_scope,
    CASE r.scope WHEN 'lead' THEN ($3::uuid[])[1 + (i / 10) % cardinality($3::uuid[])]
                 WHEN 'member' THEN ($4::uuid[])[1 + (i / 10) % cardinality($4::uuid[])] END,
    $5::timestamptz - i * ($6::float8 * interval '1 millisecond'),
    r.headline,
    jsonb_build_object('headline', r.headline, 'kpi_status', '[]'::jsonb,
      'shipped', jsonb_build_array(jsonb_build_object('title', r.text)),
      'silent', '[]'::jsonb, 'slipping', '[]'::jsonb, 'blockers', '[]'::jsonb),
    r.headline || E'\\n' || r.text, ${SEARCH_TEXT_VERSION}
  FROM generate_series(0, $2::int - 1) AS i,
  LATERAL (SELECT
    CASE WHEN i % 10 = 0 THEN 'org' WHEN i % 10 < 3 THEN 'lead' ELSE 'member' END AS scope,
    'Day report ' || i AS headline,
    concat_ws(' ', (ARRAY['gripper', 'vendor', 'camera', 'staging', 'invoice'])[1 + i % 5],
      CASE WHEN i % 2 = 0 THEN '${COMMON_WORD}' END,
      CASE WHEN i % 5000 = 1234 THEN '${RARE_WORD}' END) AS text) r`;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Filter?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

const INDEX_READS = ["Index Scan", "Index Only Scan", "Bitmap Heap Scan"];

/** Reports a node read: those it passed on and those it read and dropped, in every loop. */
function rowsRead(node: PlanNode): number {
  const read =
    (node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
  return read * (node["Actual Loops"] ?? 1);
}

// A page of 50 may read a few pages' worth of reports (a filter checked on reports read in the list's order keeps
// about one in two for the common word); a scan of the organization's reports reads all 20,000.
const READ_BUDGET = 10 * (PAGE + 1);

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/** The plan as EXPLAIN's text would show its outline, for failure messages and reports. */
function outline(node: PlanNode, depth = 0): string {
  const on = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  const using = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
  const conditions = (["Index Cond", "Recheck Cond", "Filter"] as const)
    .filter((k) => node[k])
    .map((k) => `\n${"  ".repeat(depth + 1)}${k}: ${node[k]}`)
    .join("");
  const removed = node["Rows Removed by Filter"] ? ` removed by filter=${node["Rows Removed by Filter"]}` : "";
  const rows =
    node["Actual Rows"] === undefined ? "" : ` (rows=${node["Actual Rows"]}${removed} loops=${node["Actual Loops"]})`;
  const head = `${"  ".repeat(depth)}-> ${node["Node Type"]}${on}${using}${rows}${conditions}`;
  return [head, ...(node.Plans ?? []).map((child) => outline(child, depth + 1))].join("\n");
}

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

describe.skipIf(!ON_POSTGRES)(
  `report reads use an index at ${REPORTS.toLocaleString("en")} reports (PostgreSQL only: skipped on the embedded database, which serves development and demo data, not histories of this size)`,
  () => {
    let client: pg.Client;
    let org: HistoryOrg;
    let other: HistoryOrg;
    let member: string;
    const deepPositions = new Map<string, { generatedAt: string; id: string }>();

    beforeAll(async () => {
      client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      [org, other] = await Promise.all([createHistoryOrg(), createHistoryOrg()]);
      const people = Array.from({ length: 40 }, (_, i) => ({
        id: randomUUID(),
        organizationId: org.organization.id,
        name: `Person ${i}`,
        role: i < 5 ? ("lead" as const) : ("member" as const),
      }));
      await (await getDb()).member.createMany({ data: people });
      const leads = people.filter((p) => p.role === "lead").map((p) => p.id);
      const members = people.filter((p) => p.role === "member").map((p) => p.id);
      member = members[3]!;
      await client.query(SEED, [org.organization.id, REPORTS, leads, members, NEWEST, SPAN_MS / REPORTS]);
      const ids = (o: HistoryOrg, role: "lead" | "member") => o.members.filter((m) => m.role === role).map((m) => m.id);
      await client.query(SEED, [
        other.organization.id,
        OTHER_REPORTS,
        ids(other, "lead"),
        ids(other, "member"),
        NEWEST,
        SPAN_MS / OTHER_REPORTS,
      ]);
      await client.query("ANALYZE reports");
      for (const scope of [undefined, "member"]) {
        const { rows } = await client.query<{ generated_at: Date; id: string }>(
          `SELECT generated_at, id FROM reports WHERE organization_id = $1 AND ($2::report_scope IS NULL OR scope = $2)
           ORDER BY generated_at DESC, id DESC OFFSET ${DEEP - 1} LIMIT 1`,
          [org.organization.id, scope ?? null],
        );
        deepPositions.set(scope ?? "", { generatedAt: rows[0]!.generated_at.toISOString(), id: rows[0]!.id });
      }
      // The key's first request looks it up on its own; from the second on, the read travels with the lookup.
      expect((await call(listReports, "/api/v1/reports", { headers: bearer(org.key) })).status).toBe(200);
    });

    afterAll(async () => {
      await Promise.all([org?.remove(), other?.remove()]);
      await client?.end();
    });

    // With GIN's default fastupdate, the 24,000 reports just written would wait in the index's pending list, which
    // every search reads whole and the planner prices a page read at a time: enough, with what other tests left
    // there, to make a rare word's search cheaper as a read of every report (CI, before the index's fastupdate
    // went off). pgstattuple ships with PostgreSQL's contrib modules.
    it("reports written in bulk are in the search index at once, with nothing pending for a VACUUM to merge", async () => {
      await client.query("CREATE EXTENSION IF NOT EXISTS pgstattuple");
      const { rows } = await client.query<{ pending_pages: number; pending_tuples: string }>(
        "SELECT pending_pages, pending_tuples FROM pgstatginindex('reports_search_vector_idx')",
      );
      expect(rows[0]).toEqual({ pending_pages: 0, pending_tuples: "0" });
    });

    /** A page `DEEP` reports into the walk with these filters, as the previous page's next_cursor. */
    function deepCursor(filters: Record<string, string>): string {
      const position = deepPositions.get(filters.scope ?? "")!;
      return encodeCursor({ organizationId: org.organization.id, filters: reportPaging.digest(filters), ...position });
    }

    type Filters = () => Record<string, string>;
    const CASES: [string, Filters, { keyset?: boolean }][] = [
      ["no filter", () => ({}), {}],
      ["since and until, one week", () => ({ since: "2026-06-01", until: "2026-06-07" }), {}],
      ["scope org", () => ({ scope: "org" }), {}],
      ["scope lead", () => ({ scope: "lead" }), {}],
      ["scope member", () => ({ scope: "member" }), {}],
      ["scope_target_id", () => ({ scope_target_id: member }), {}],
      [`q with a common word (${COMMON_WORD})`, () => ({ q: COMMON_WORD }), {}],
      [`q with a rare word (${RARE_WORD})`, () => ({ q: RARE_WORD }), {}],
      [`page after ${DEEP.toLocaleString("en")} reports`, () => ({ cursor: deepCursor({}) }), { keyset: true }],
      [
        `scope member, page after ${DEEP.toLocaleString("en")} of its reports`,
        () => ({ scope: "member", cursor: deepCursor({ scope: "member" }) }),
        { keyset: true },
      ],
    ];

    /** The one statement that reads reports among those sent while `work` ran. */
    async function statementOf(work: () => Promise<unknown>): Promise<SentStatement> {
      const { statements } = await captureStatements(work);
      const reads = statements.filter((s) => /\bFROM reports\b/.test(s.text));
      expect(reads, statements.map((s) => s.text).join("\n---\n")).toHaveLength(1);
      return reads[0]!;
    }

    async function restStatement(filters: Record<string, string>): Promise<SentStatement> {
      const query = new URLSearchParams({ limit: String(PAGE), ...filters });
      return statementOf(async () => {
        const res = await call(listReports, `/api/v1/reports?${query}`, { headers: bearer(org.key) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.count).toBeGreaterThan(0);
      });
    }

    async function mcpStatement(filters: Record<string, string>): Promise<SentStatement> {
      const source = createDatabaseSource((await verifyKeyHash(hashPresentedKey(org.key))).key);
      const tool = TOOLS.find((t) => t.name === "list_reports")!;
      return statementOf(async () => {
        const result = await callTool(tool, source, { limit: PAGE, ...filters });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      });
    }

    const literal = (value: unknown) =>
      `'${(value instanceof Date ? value.toISOString() : String(value)).replaceAll("'", "''")}'`;

    /**
     * EXPLAIN ANALYZE of the statement with its values: the custom plan (made for these values, as PostgreSQL does
     * for a prepared statement's first executions and an unnamed one's every execution), or the generic plan (made
     * for any values, which PostgreSQL may reuse for every later execution of a prepared statement).
     */
    async function planOf(statement: SentStatement, kind: "custom" | "generic"): Promise<PlanNode> {
      const explain = "EXPLAIN (ANALYZE, FORMAT JSON)";
      let result: pg.QueryResult<{ "QUERY PLAN": [{ Plan: PlanNode }] }>;
      if (kind === "custom") {
        result = await client.query({ text: `${explain} ${statement.text}`, values: statement.values });
      } else {
        // One transaction, so that a transaction-mode pooler keeps all four on one server connection.
        await client.query("BEGIN");
        try {
          await client.query(`PREPARE explained AS ${statement.text}`);
          await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
          result = await client.query(`${explain} EXECUTE explained(${statement.values.map(literal).join(", ")})`);
          await client.query("DEALLOCATE explained");
        } finally {
          await client.query("ROLLBACK");
        }
      }
      return result.rows[0]!["QUERY PLAN"][0].Plan;
    }

    function expectIndexReads(plan: PlanNode, { keyset = false }: { keyset?: boolean }) {
      const text = outline(plan);
      const reads = planNodes(plan).filter((n) => n["Relation Name"] === "reports");
      expect(reads.length, text).toBeGreaterThan(0);
      for (const read of reads) expect(read["Node Type"], text).toBeOneOf(INDEX_READS);
      expect(
        reads.reduce((sum, n) => sum + rowsRead(n), 0),
        text,
      ).toBeLessThanOrEqual(READ_BUDGET);
      if (!keyset) return;
      // The position is where the index scan starts, not a condition checked on every report read before it.
      const positioned = reads.filter((n) => /ROW\([^)]*generated_at[^)]*\bid\) < ROW\(/.test(n["Index Cond"] ?? ""));
      expect(positioned, text).toHaveLength(1);
      expect(positioned[0]!["Actual Rows"], text).toBeLessThanOrEqual(PAGE + 1);
    }

    const SURFACES = [
      ["REST", restStatement],
      ["MCP", mcpStatement],
    ] as const;

    for (const [surface, statementFor] of SURFACES) {
      it.for(CASES)(
        `%s: ${surface}'s statement, planned with its values, reads reports through an index`,
        async ([, filters, options]) => {
          expectIndexReads(await planOf(await statementFor(filters()), "custom"), options);
        },
      );

      it.for(CASES)(
        `%s: ${surface}'s statement is planned for its values each run, or its generic plan reads reports through an index`,
        async ([, filters, options]) => {
          const asked = filters();
          const statement = await statementFor(asked);
          // Searches are sent unnamed (lib/data/reports.ts): PostgreSQL plans them with their words every time,
          // because a generic plan walks the whole organization for a rare word. Only searches may be, unless
          // the reader has stopped naming statements for a pooler (the project run through PgBouncer).
          const search = asked.q !== undefined;
          const sentUnnamed = statement.name === undefined;
          if ((await getSql()).named)
            expect(sentUnnamed, "sent unnamed (planned with its values every run)").toBe(search);
          else expect(sentUnnamed, "behind a pooler every statement is sent unnamed").toBe(true);
          if (!search) expectIndexReads(await planOf(statement, "generic"), options);
        },
      );
    }
  },
);
