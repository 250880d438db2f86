import { randomUUID } from "node:crypto";
import { createApiKey } from "@/lib/data/api-keys";
import { importReports } from "@/lib/data/import-reports";
import { getDb } from "@/lib/db";
import type { ReportScope } from "@/lib/schemas/reports";

// An organization of its own for tests that need a known set of reports (the demo organizations are shared by
// every test file of a worker): two leads and two members, reports made to order, and a key.

export interface HistoryReport {
  id: string;
  scope: ReportScope;
  scope_target_id: string | null;
  generated_at: string;
  headline: string;
  text: string;
}

export interface HistoryOrg {
  organization: { id: string; slug: string; name: string };
  members: { id: string; name: string; role: "lead" | "member"; active: boolean }[];
  key: string;
  reports: HistoryReport[];
  /** Imports more reports into the organization (as the CLI would) and remembers them. */
  add(reports: HistoryReport[]): Promise<void>;
  /** Deletes the organization with its members, keys and reports, so other test files see the database as before. */
  remove(): Promise<void>;
}

export function historyReport(fields: Partial<HistoryReport> & Pick<HistoryReport, "generated_at">): HistoryReport {
  return {
    id: randomUUID(),
    scope: "org",
    scope_target_id: null,
    headline: `Report of ${fields.generated_at}`,
    text: "routine progress",
    ...fields,
  };
}

export async function createHistoryOrg(): Promise<HistoryOrg> {
  const db = await getDb();
  const slug = `history-${randomUUID().slice(0, 8)}`;
  const organization = await db.organization.create({
    data: { slug, name: `History ${slug}` },
    select: { id: true, slug: true, name: true },
  });
  const members = [
    { id: randomUUID(), name: "Dev Patel", role: "lead" as const, active: true },
    { id: randomUUID(), name: "Grace Kim", role: "lead" as const, active: false },
    { id: randomUUID(), name: "Aisha Khan", role: "member" as const, active: true },
    { id: randomUUID(), name: "Tom Berg", role: "member" as const, active: true },
  ];
  await db.member.createMany({ data: members.map((m) => ({ ...m, organizationId: organization.id })) });
  const { key } = await createApiKey({
    organizationId: organization.id,
    name: "history-test",
    scopes: ["reports:read", "team:read"],
    actor: { label: "test" },
  });
  const reports: HistoryReport[] = [];
  return {
    organization,
    members,
    key,
    reports,
    async add(more) {
      await importReports(
        organization,
        more.map((r) => ({
          id: r.id,
          scope: r.scope,
          scope_target_id: r.scope_target_id,
          generated_at: r.generated_at,
          report: {
            headline: r.headline,
            kpi_status: [],
            shipped: [{ title: r.text }],
            silent: [],
            slipping: [],
            blockers: [],
          },
        })),
        { actor: { label: "test" } },
      );
      reports.push(...more);
    },
    async remove() {
      await db.organization.delete({ where: { id: organization.id } });
    },
  };
}

/** Runs `work` on a new history organization, then deletes the organization whatever the outcome. */
export async function withHistoryOrg<T>(work: (org: HistoryOrg) => Promise<T>): Promise<T> {
  const org = await createHistoryOrg();
  try {
    return await work(org);
  } finally {
    await org.remove();
  }
}

/** The reports a list with these filters must answer, in its order: generated_at, then id, descending. */
export function expectedOrder(reports: HistoryReport[], keep: (r: HistoryReport) => boolean = () => true): string[] {
  return reports
    .filter(keep)
    .sort((a, b) =>
      a.generated_at === b.generated_at ? (a.id < b.id ? 1 : -1) : a.generated_at < b.generated_at ? 1 : -1,
    )
    .map((r) => r.id);
}
