import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { itemKey } from "@/lib/text/item-key";
import { recordActivity, type Actor } from "./activity";
import { ORGANIZATION_SUBJECT } from "./organizations";

// KPI targets (issue 38), set by founders in Settings → Organization: a value at or above the target (at_least) or
// at or below it (at_most) is on track. A KPI is known by its folded name (lib/text/item-key.ts, as report items fold
// text), so "MRR" and "mrr" are one KPI: setting a target for a name already there changes that target. Each change
// is a line in the organization's trail.

type KpiDirection = "at_least" | "at_most";

export interface KpiTarget {
  nameKey: string;
  name: string;
  target: number;
  direction: KpiDirection;
  unit: string | null;
}

export interface KpiTargetInput {
  name: string;
  target: number;
  direction: KpiDirection;
  unit: string | null;
}

const SELECT = { nameKey: true, name: true, target: true, direction: true, unit: true } as const;

/** The organization's targets, by name. */
export async function listKpiTargets(organizationId: string): Promise<KpiTarget[]> {
  const db = await getDb();
  const rows = await db.kpiTarget.findMany({ where: { organizationId }, select: SELECT, orderBy: { nameKey: "asc" } });
  return rows.map((row) => ({ ...row, direction: row.direction as KpiDirection }));
}

/**
 * Sets the target of a KPI, a new one or the one its folded name already names (whose name becomes as written now).
 * Returns what it holds now and whether it was new; the same target again changes nothing and writes no line.
 */
export async function setKpiTarget(
  organizationId: string,
  input: KpiTargetInput,
  actor: Actor,
): Promise<{ target: KpiTarget; outcome: "added" | "changed" | "unchanged" }> {
  const nameKey = itemKey(input.name);
  if (!nameKey) throw new ApiError("invalid_parameter", "A KPI's name needs a letter or a digit.");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const before = await tx.kpiTarget.findUnique({
      where: { organizationId_nameKey: { organizationId, nameKey } },
      select: SELECT,
    });
    const target: KpiTarget = { nameKey, ...input };
    if (
      before &&
      before.name === target.name &&
      before.target === target.target &&
      before.direction === target.direction &&
      before.unit === target.unit
    ) {
      return { target, outcome: "unchanged" as const };
    }
    const data = { name: input.name, target: input.target, direction: input.direction, unit: input.unit };
    await tx.kpiTarget.upsert({
      where: { organizationId_nameKey: { organizationId, nameKey } },
      create: { organizationId, nameKey, ...data },
      update: data,
      select: { nameKey: true },
    });
    await recordActivity(tx, organizationId, actor, {
      subject: { type: ORGANIZATION_SUBJECT, id: organizationId, label: input.name },
      action: before ? "kpi_target_changed" : "kpi_target_set",
      detail: { target: targetText(target) },
    });
    return { target, outcome: before ? ("changed" as const) : ("added" as const) };
  });
}

/** Removes the target of a KPI, by its folded name. True when there was one. */
export async function removeKpiTarget(organizationId: string, nameKey: string, actor: Actor): Promise<boolean> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const before = await tx.kpiTarget.findUnique({
      where: { organizationId_nameKey: { organizationId, nameKey } },
      select: SELECT,
    });
    if (!before) return false;
    await tx.kpiTarget.delete({
      where: { organizationId_nameKey: { organizationId, nameKey } },
      select: { name: true },
    });
    await recordActivity(tx, organizationId, actor, {
      subject: { type: ORGANIZATION_SUBJECT, id: organizationId, label: before.name },
      action: "kpi_target_removed",
      detail: { target: targetText({ ...before, direction: before.direction as KpiDirection }) },
    });
    return true;
  });
}

/** A target as people say it: "at least 120 k€". */
function targetText({ target, direction, unit }: Pick<KpiTarget, "target" | "direction" | "unit">): string {
  return `${direction === "at_least" ? "at least" : "at most"} ${target}${unit ? ` ${unit}` : ""}`;
}
