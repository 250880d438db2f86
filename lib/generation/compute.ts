import type { UpdateContent } from "@/lib/data/updates";
import { itemKey } from "@/lib/text/item-key";
import { cutoffInstant, dayIn, daysBetween, isoWeekday } from "./calendar";
import type { DayInputs, GenerationMember } from "./day-inputs";
import { headline } from "./headline";
import { firstListedDay, historyEntry, textKey, type HistoryEntry } from "./item-ages";
import { kpiStatus, type KpiStatus } from "./kpi-status";
import { silentStreak } from "./silence";

// One organization day's reports from its inputs (docs/generation.md has the rules in prose):
// - a member report for each person who wrote that day: their own update, nothing carried;
// - a lead report for each active lead with a department, over the department's active people (the lead too);
// - one organization report, over the active people and anyone else who wrote.
// Lead and organization reports also carry the open blockers and slipping items of the people they cover who wrote
// nothing that day (silent or away): an item stays open until its owner writes an update without it, so a reader
// (the briefing) never sees a blocker "resolved" because its owner was away. On a day that is not a working day,
// only those who wrote have reports (and the lead and organization reports only when someone they cover wrote);
// nobody is silent.

export type GeneratedScope = "member" | "lead" | "org";

interface ShippedItem {
  title: string;
  owner: string;
  member_id: string;
}
interface SlippingItem {
  item: string;
  owner: string;
  member_id: string;
  days_late: number;
  reason?: string;
  due?: string;
}
interface BlockerItem {
  description: string;
  owner: string;
  member_id: string;
  since_days: number;
  since: string;
}
interface SilentItem {
  member: string;
  member_id: string;
  days_silent: number;
}
interface KpiItem {
  name: string;
  value: number;
  unit?: string;
  target?: number;
  status?: KpiStatus;
  owner: string;
  member_id: string;
}
interface NoteItem {
  text: string;
  owner: string;
  member_id: string;
}

interface GeneratedContent {
  headline: string;
  day: string;
  shipped: ShippedItem[];
  slipping: SlippingItem[];
  blockers: BlockerItem[];
  silent: SilentItem[];
  kpi_status: KpiItem[];
  notes: NoteItem[];
}

export interface GeneratedReport {
  scope: GeneratedScope;
  scope_target_id: string | null;
  /** The day's cutoff instant, ISO 8601 UTC with milliseconds. */
  generated_at: string;
  report: GeneratedContent;
}

/** What one person brings to the reports covering them that day. */
interface Contribution {
  wrote: boolean;
  shipped: ShippedItem[];
  slipping: SlippingItem[];
  blockers: BlockerItem[];
  silent: SilentItem[];
  kpi_status: KpiItem[];
  notes: NoteItem[];
}

export function computeDayReports(inputs: DayInputs): GeneratedReport[] {
  const { organization, day } = inputs;
  const cutoff = cutoffInstant(day, organization.cutoffTime, organization.timeZone);
  const generatedAt = cutoff.toISOString();
  const working = new Set(organization.workingDays);
  const isWorkingDay = (d: string) => working.has(isoWeekday(d));
  const histories = historiesUpTo(inputs);
  const absences = groupBy(inputs.absences, (a) => a.memberId);
  const targets = new Map(inputs.targets.map((t) => [t.nameKey, t]));
  const members = [...inputs.members].sort((a, b) => a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : 1));
  const workingDay = isWorkingDay(day);
  const started = inputs.firstUpdateDay !== null && day >= inputs.firstUpdateDay;

  const contributions = new Map<string, Contribution>();
  for (const member of members) {
    const history = histories.get(member.id) ?? [];
    const wrote = history[0]?.day === day;
    const contribution: Contribution = {
      wrote,
      shipped: [],
      slipping: [],
      blockers: [],
      silent: [],
      kpi_status: [],
      notes: [],
    };
    const owner = { owner: member.name, member_id: member.id };
    if (history.length > 0) {
      const latest = history[0]!;
      contribution.slipping = latest.content.slipping.map((s) => ({
        item: s.item,
        ...owner,
        days_late: s.due
          ? Math.max(0, daysBetween(s.due, day))
          : daysBetween(firstListedDay(history, textKey(s.item), "slippingKeys"), day),
        ...(s.reason ? { reason: s.reason } : {}),
        ...(s.due ? { due: s.due } : {}),
      }));
      contribution.blockers = latest.content.blockers.map((b) => {
        const since = firstListedDay(history, textKey(b.description), "blockerKeys");
        return { description: b.description, ...owner, since_days: daysBetween(since, day), since };
      });
    }
    if (wrote) {
      const content = history[0]!.content;
      contribution.shipped = content.shipped.map((s) => ({ title: s.title, ...owner }));
      contribution.kpi_status = content.kpis.map((k) => kpiItem(k, targets, owner));
      contribution.notes = content.note ? [{ text: content.note, ...owner }] : [];
    } else if (workingDay && started && maySeemSilent(member, cutoff)) {
      const away = absences.get(member.id) ?? [];
      const isAway = (d: string) => away.some((a) => a.firstDay <= d && d <= a.lastDay);
      if (!isAway(day)) {
        const joined = dayIn(member.createdAt, organization.timeZone);
        const days_silent = silentStreak({
          day,
          lastUpdateDay: inputs.lastUpdateDays.get(member.id),
          countsFrom: joined > inputs.firstUpdateDay! ? joined : inputs.firstUpdateDay!,
          isWorkingDay,
          isAway,
        });
        if (days_silent > 0) contribution.silent = [{ member: member.name, member_id: member.id, days_silent }];
      }
    }
    contributions.set(member.id, contribution);
  }

  const report = (
    scope: GeneratedScope,
    target: string | null,
    subject: string,
    covered: GenerationMember[],
  ): GeneratedReport => {
    const parts = covered.map((m) => contributions.get(m.id)!);
    const content: GeneratedContent = {
      headline: "",
      day,
      shipped: parts.flatMap((p) => p.shipped),
      slipping: parts.flatMap((p) => p.slipping),
      blockers: parts.flatMap((p) => p.blockers),
      silent: parts.flatMap((p) => p.silent),
      kpi_status: parts.flatMap((p) => p.kpi_status),
      notes: parts.flatMap((p) => p.notes),
    };
    content.headline = headline(subject, {
      shipped: content.shipped.length,
      slipping: content.slipping.length,
      blockers: content.blockers.length,
      silent: content.silent.length,
    });
    return { scope, scope_target_id: target, generated_at: generatedAt, report: content };
  };
  const wrote = (m: GenerationMember) => contributions.get(m.id)!.wrote;
  const wanted = (covered: GenerationMember[]) => (workingDay ? started : covered.some(wrote));

  // A member report is the person's own day: they wrote it, so nothing in it is carried and they are not silent.
  const reports = members.filter(wrote).map((m) => report("member", m.id, m.name, [m]));
  for (const lead of members) {
    if (lead.role !== "lead" || !lead.active || !lead.department) continue;
    const covered = members.filter((m) => m.active && m.department === lead.department);
    if (wanted(covered)) reports.push(report("lead", lead.id, lead.name, covered));
  }
  const everyone = members.filter((m) => m.active || wrote(m));
  if (wanted(everyone)) reports.push(report("org", null, organization.name, everyone));
  return reports;
}

/** Active, on the team (not external), and on the roster before the day's cutoff. */
function maySeemSilent(member: GenerationMember, cutoff: Date): boolean {
  return member.active && !member.isExternal && member.createdAt < cutoff;
}

function kpiItem(
  kpi: UpdateContent["kpis"][number],
  targets: Map<string, DayInputs["targets"][number]>,
  owner: { owner: string; member_id: string },
): KpiItem {
  const target = targets.get(itemKey(kpi.name) ?? "");
  const unit = kpi.unit ?? target?.unit ?? undefined;
  return {
    name: target?.name ?? kpi.name,
    value: kpi.value,
    ...(unit ? { unit } : {}),
    ...(target ? { target: target.target, status: kpiStatus(kpi.value, target.target, target.direction) } : {}),
    ...owner,
  };
}

/** Each member's updates on or before the day, newest first. */
function historiesUpTo(inputs: DayInputs): Map<string, HistoryEntry[]> {
  const histories = new Map<string, HistoryEntry[]>();
  for (const update of inputs.updates) {
    if (update.day > inputs.day) continue;
    const list = histories.get(update.memberId) ?? [];
    list.push(historyEntry(update.day, update.content));
    histories.set(update.memberId, list);
  }
  for (const list of histories.values()) list.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
  return histories;
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row)) ?? [];
    list.push(row);
    groups.set(key(row), list);
  }
  return groups;
}
