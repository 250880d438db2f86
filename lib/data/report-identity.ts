import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { RETRY_AFTER_HEADER } from "@/lib/header-names";
import type { ReportScope } from "@/lib/schemas/reports";

// Which stored report an incoming one is (issue 37): the report with its id when it has one, else the report of its
// organization with its scope, target and generated_at. The second rule holds for every report, with an id or
// without: a unique index keeps it (reports_identity_key, prisma/migrations/20261210000000_report_identity), except
// for the duplicates stored before it, which are marked (duplicate_of) and never matched by it.
//
// Imports into one organization take turns (lockOrganizationImports), so that what matchStoredReports finds is
// still true when the import writes: two imports of one file, at once, store it once. The index is the backstop.

type Transaction = Prisma.TransactionClient;

/** What the index writes for the org scope's missing target, so that NULL is one value like any other. */
export const NO_TARGET = "00000000-0000-0000-0000-000000000000";

// Advisory locks taken with two int4 keys never meet those taken with one bigint (the migrations'): the first key
// says whose lock this is, the second is the organization.
const IMPORT_LOCK_CLASS = 37_001;

/** How long an import waits for the one before it in the same organization (10,000 reports take seconds). */
const IMPORT_LOCK_WAIT_MS = 60_000;
const IMPORT_LOCK_RETRY_MS = 100;

/**
 * Takes, and holds until the transaction ends, the organization's import lock. A transaction-level lock: released
 * by COMMIT or ROLLBACK on the connection that took it, so it works through a transaction-mode pooler. Tried rather
 * than waited for in one statement, which every statement's time limit (DATABASE_TIMEOUT_MS) would cut short while
 * a large import holds the lock.
 */
export async function lockOrganizationImports(tx: Transaction, organizationId: string): Promise<void> {
  const deadline = Date.now() + IMPORT_LOCK_WAIT_MS;
  for (;;) {
    const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(${IMPORT_LOCK_CLASS}::int, hashtext(${organizationId})) AS locked`;
    if (locked) return;
    if (Date.now() >= deadline) {
      throw new ApiError(
        "service_unavailable",
        "Another import into this organization has been running for a minute; try again when it has finished.",
        { headers: { [RETRY_AFTER_HEADER]: "30" } },
      );
    }
    await sleep(IMPORT_LOCK_RETRY_MS);
  }
}

/** An incoming report as identity sees it. */
export interface IncomingReport {
  id?: string;
  scope: ReportScope;
  scope_target_id: string | null;
  /** ISO 8601 in UTC, with milliseconds. */
  generated_at: string;
  report: unknown;
}

/** What is stored under an incoming report's id and under its scope, target and generated_at. */
export interface StoredMatch {
  /** A report with the incoming id, in any organization. */
  byId?: {
    inOrganization: boolean;
    /** Scope, target, generated_at and content all equal to the incoming report's. */
    same: boolean;
    /** The report it repeats, when it is a duplicate kept from before imports were idempotent. */
    duplicateOf: string | null;
  };
  /** The identified report of the organization with the incoming scope, target and generated_at. */
  byKey?: { id: string; same: boolean };
}

interface MatchRow {
  idx: number;
  id_in_organization: boolean | null;
  id_same: boolean | null;
  id_duplicate_of: string | null;
  key_id: string | null;
  key_same: boolean | null;
}

/** The stored counterparts of each incoming report, in one statement; content is compared as jsonb. */
export async function matchStoredReports(
  tx: Transaction,
  organizationId: string,
  reports: IncomingReport[],
): Promise<StoredMatch[]> {
  const rows = reports.map((r, idx) => ({
    idx,
    id: r.id ?? null,
    scope: r.scope,
    target: r.scope_target_id,
    generated_at: r.generated_at,
    content: r.report,
  }));
  const found = await tx.$queryRaw<MatchRow[]>`
    SELECT i.idx,
           by_id.organization_id = ${organizationId}::uuid AS id_in_organization,
           (by_id.scope = i.scope::report_scope AND by_id.scope_target_id IS NOT DISTINCT FROM i.target
             AND by_id.generated_at = i.generated_at AND by_id.content = i.content) AS id_same,
           by_id.duplicate_of::text AS id_duplicate_of,
           by_key.id::text AS key_id,
           by_key.content = i.content AS key_same
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS i(idx int, id uuid, scope text, target uuid, generated_at timestamptz, content jsonb)
    LEFT JOIN reports by_id ON by_id.id = i.id
    LEFT JOIN reports by_key ON by_key.organization_id = ${organizationId}::uuid AND by_key.duplicate_of IS NULL
      AND by_key.scope = i.scope::report_scope
      AND COALESCE(by_key.scope_target_id, ${NO_TARGET}::uuid) = COALESCE(i.target, ${NO_TARGET}::uuid)
      AND by_key.generated_at = i.generated_at
    WHERE by_id.id IS NOT NULL OR by_key.id IS NOT NULL`;
  const matches: StoredMatch[] = reports.map(() => ({}));
  for (const row of found) {
    const match = matches[row.idx]!;
    if (row.id_in_organization !== null) {
      match.byId = {
        inOrganization: row.id_in_organization,
        same: row.id_same === true,
        duplicateOf: row.id_duplicate_of,
      };
    }
    if (row.key_id !== null) match.byKey = { id: row.key_id, same: row.key_same === true };
  }
  return matches;
}

export type ImportOutcome = "added" | "unchanged" | "replaced";

/** Why an incoming report cannot be written: its place's message, and whether --replace would let it through. */
interface IdentityProblem {
  index: number;
  /** The field the problem is about, under the report's place ("id"), or "" for the report as a whole. */
  field: "" | "id";
  message: string;
  /** "differs": a stored report has other content, and replacing it is allowed; "collides": no replace helps. */
  kind: "differs" | "collides";
}

export interface Judgement {
  /** Per incoming report, in order: what writing it does and the id it has (a new one for an added report). */
  outcomes: { id: string | undefined; outcome: ImportOutcome }[];
  problems: IdentityProblem[];
}

const SAME_KEY = "scope, scope_target_id and generated_at";

/**
 * What importing each report does, given what is stored (no I/O): added, unchanged or replaced, or a problem.
 * An added report without an id gets its id when it is written (`id` undefined here). `placeOf` names a report
 * of the batch in messages about another one.
 */
export function judgeImport(
  reports: IncomingReport[],
  matches: StoredMatch[],
  { replace, placeOf }: { replace: boolean; placeOf: (index: number) => string },
): Judgement {
  const problems: IdentityProblem[] = [];
  const refused = new Set<number>();
  const outcomes = reports.map((report, index): Judgement["outcomes"][number] => {
    const { byId, byKey } = matches[index]!;
    const problem = (field: IdentityProblem["field"], kind: IdentityProblem["kind"], message: string) => {
      problems.push({ index, field, kind, message });
      refused.add(index);
      return { id: report.id, outcome: "unchanged" as const };
    };
    if (report.id !== undefined) {
      if (byId && !byId.inOrganization) {
        return problem("id", "collides", "this id is taken by a report of another organization; choose another id");
      }
      if (byId?.same) return { id: report.id, outcome: "unchanged" };
      if (byId && byId.duplicateOf !== null) {
        return problem(
          "id",
          "collides",
          `stored report ${report.id} repeats report ${byId.duplicateOf} (both stored before imports were idempotent): delete one of them before replacing it`,
        );
      }
      if (byKey && byKey.id !== report.id) {
        return problem(
          "",
          "collides",
          `stored report ${byKey.id} has the same ${SAME_KEY}, under another id: send it with that id, or without one`,
        );
      }
      if (!byId) return { id: report.id, outcome: "added" };
      if (!replace) return problem("id", "differs", `differs from stored report ${report.id}, which has this id`);
      return { id: report.id, outcome: "replaced" };
    }
    if (!byKey) return { id: undefined, outcome: "added" };
    if (byKey.same) return { id: byKey.id, outcome: "unchanged" };
    if (!replace) {
      return problem("", "differs", `differs from stored report ${byKey.id}, which has the same ${SAME_KEY}`);
    }
    return { id: byKey.id, outcome: "replaced" };
  });
  // Two reports of one batch that are one stored report (one by its id, the other by its scope, target and time).
  const firstNaming = new Map<string, number>();
  outcomes.forEach(({ id, outcome }, index) => {
    if (id === undefined || outcome === "added" || refused.has(index)) return;
    const first = firstNaming.get(id);
    if (first === undefined) firstNaming.set(id, index);
    else
      problems.push({
        index,
        field: "",
        kind: "collides",
        message: `is stored report ${id}, as ${placeOf(first)} is: send each report once`,
      });
  });
  return { outcomes, problems };
}
