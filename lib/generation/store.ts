import { importReports, validateImportReports } from "@/lib/data/import-reports";
import type { Actor } from "@/lib/data/activity";
import { getDb } from "@/lib/db";
import type { OrganizationRef } from "@/lib/data/organizations";
import { deleteReport } from "@/lib/data/report-deletion";
import type { ImportOutcome } from "@/lib/data/report-identity";
import { cutoffInstant } from "./calendar";
import { computeDayReports, type GeneratedScope } from "./compute";
import { loadDayInputs } from "./load-inputs";

// Generating one organization day: compute its reports and store them through the report import (replace: true),
// so that REST, MCP, search, report_items and webhooks see them as they see imported ones. A report is identified
// by its scope, target and generated_at (the day's cutoff instant), so generating a day again replaces in place: a
// report whose content changed is announced as report.updated, one that did not change is left alone and not
// announced. A report stored at the day's cutoff instant that the day no longer makes (the only update of its
// member removed, a lead who lost their department) is deleted, announced as report.deleted: the cutoff instant
// of a generated day belongs to generation.

const GENERATION_ACTOR: Actor = { label: "report generation" };

type DayOutcome = ImportOutcome | "deleted";

export interface GeneratedDay {
  day: string;
  generated_at: string;
  reports: { scope: GeneratedScope; scope_target_id: string | null; id: string; outcome: DayOutcome }[];
}

/** Generates one day of one organization now, whatever its grace. */
export async function generateDay(organization: OrganizationRef, day: string): Promise<GeneratedDay> {
  const inputs = await loadDayInputs(organization.id, day);
  if (!inputs) throw new Error(`organization ${organization.slug} is gone`);
  const { cutoffTime, timeZone } = inputs.organization;
  const generatedAt = cutoffInstant(day, cutoffTime, timeZone);
  const computed = computeDayReports(inputs);
  const result: GeneratedDay = { day, generated_at: generatedAt.toISOString(), reports: [] };
  if (computed.length > 0) {
    const imported = await importReports(organization, validateImportReports(computed), {
      replace: true,
      actor: GENERATION_ACTOR,
    });
    result.reports = computed.map((r, i) => ({
      scope: r.scope,
      scope_target_id: r.scope_target_id,
      id: imported.reports[i]!.id,
      outcome: imported.reports[i]!.outcome,
    }));
  }
  const kept = new Set(result.reports.map((r) => r.id));
  for (const orphan of await reportsAt(organization.id, generatedAt)) {
    if (kept.has(orphan.id)) continue;
    await deleteReport(organization.id, orphan.id, GENERATION_ACTOR);
    result.reports.push({ ...orphan, outcome: "deleted" });
  }
  return result;
}

async function reportsAt(organizationId: string, generatedAt: Date) {
  const db = await getDb();
  const rows = await db.report.findMany({
    where: { organizationId, generatedAt, duplicateOf: null },
    select: { id: true, scope: true, scopeTargetId: true },
  });
  return rows.map((r) => ({ id: r.id, scope: r.scope as GeneratedScope, scope_target_id: r.scopeTargetId }));
}
