import type { UpdateContent } from "@/lib/data/updates";
import type { KpiDirection } from "./kpi-status";

// What generating one organization day reads: the rows, loaded by ./load-inputs.ts, and nothing else, so that the
// rules (./compute.ts) are pure functions a unit test can feed.

/** How far back a day's generation reads updates' content: the age of a blocker or slipping item listed without a
 * break for longer is counted from this far back, and an item whose owner has written nothing for this long is no
 * longer carried into the lead and organization reports. */
export const LOOKBACK_DAYS = 90;

interface GenerationOrganization {
  name: string;
  timeZone: string;
  /** "HH:MM" in timeZone. */
  cutoffTime: string;
  /** ISO weekdays, 1 = Monday. */
  workingDays: number[];
}

export interface GenerationMember {
  id: string;
  name: string;
  role: string;
  department: string | null;
  isExternal: boolean;
  active: boolean;
  createdAt: Date;
}

export interface DayUpdate {
  memberId: string;
  day: string;
  content: UpdateContent;
}

interface DayAbsence {
  memberId: string;
  firstDay: string;
  lastDay: string;
}

interface KpiTargetRow {
  /** itemKey of the KPI's name. */
  nameKey: string;
  /** The name as the founders wrote it: a KPI with a target is named so in every report, however written. */
  name: string;
  target: number;
  direction: KpiDirection;
  unit: string | null;
}

export interface DayInputs {
  organization: GenerationOrganization;
  day: string;
  members: GenerationMember[];
  /** The organization's updates from LOOKBACK_DAYS before `day` up to `day`, in any order. */
  updates: DayUpdate[];
  /** Each member's latest update day on or before `day` (any distance back). */
  lastUpdateDays: Map<string, string>;
  /** The organization's first update day, null when it has none. */
  firstUpdateDay: string | null;
  /** Absences that overlap the days the silent streaks could reach back to. */
  absences: DayAbsence[];
  targets: KpiTargetRow[];
}
