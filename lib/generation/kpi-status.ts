// A KPI's status against the target founders set (kpi_targets): on track when it meets the target, at risk when it
// misses by at most a tenth of the target, off track beyond that. The same words the imported reports use.

export type KpiDirection = "at_least" | "at_most";
export type KpiStatus = "on_track" | "at_risk" | "off_track";

/** How far past the target, as a share of it, a value is still only at risk. */
const AT_RISK_SHARE = 0.1;

export function kpiStatus(value: number, target: number, direction: KpiDirection): KpiStatus {
  const margin = Math.abs(target) * AT_RISK_SHARE;
  if (direction === "at_least") {
    if (value >= target) return "on_track";
    return value >= target - margin ? "at_risk" : "off_track";
  }
  if (value <= target) return "on_track";
  return value <= target + margin ? "at_risk" : "off_track";
}
