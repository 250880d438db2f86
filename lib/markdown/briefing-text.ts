import type { Briefing } from "@/lib/schemas/briefing";

// A briefing as compact text, one line per item: what get_briefing shows a model next to its structured result, and
// the content of GET /api/v1/briefing as markdown. The items' text comes from reports written by people; the
// surfaces put it after their notes that say so (lib/markdown/untrusted.ts).

const who = (owner: string | null, memberId: string | null) =>
  `${owner ?? "(no owner)"}${memberId ? ` [${memberId}]` : ""}`;
const day = (instant: string) => instant.slice(0, 10);
const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;

function moreLine(section: { count: number; more: number }, noun: string): string[] {
  return section.more > 0 ? [`- … ${section.more} more ${noun} (raise limit to see them)`] : [];
}

export function renderBriefing(briefing: Briefing): string {
  const { period, blockers, silent, slipping, kpis, shipped } = briefing;
  const lines = [
    `Briefing ${period.since} to ${period.until} (days in ${period.time_zone}), from ${period.reports} report${period.reports === 1 ? "" : "s"}.`,
    "",
    `Blockers (${blockers.count}):`,
    ...blockers.items.map((b) => {
      const age = b.days_open === null ? "no age" : `${days(b.days_open)} open`;
      const state = b.resolved ? `resolved${b.resolved_at ? ` ${day(b.resolved_at)}` : ""}` : "open";
      return `- ${b.text ?? "(no text)"} — ${who(b.owner, b.member_id)} · ${state} · ${age} · first ${day(b.first_reported_at)}, last ${day(b.last_reported_at)} · ${b.report_count} report${b.report_count === 1 ? "" : "s"}`;
    }),
    ...moreLine(blockers, "blockers"),
    "",
    `Silent (${silent.count}):`,
    ...silent.items.map(
      (s) =>
        `- ${who(s.member, s.member_id)} · ${s.days === null ? "streak unknown" : days(s.days)}${s.since ? ` since ${s.since}` : ""}`,
    ),
    ...moreLine(silent, "people"),
    "",
    `Slipping (${slipping.count} owners):`,
    ...slipping.items.flatMap((o) => [
      `- ${who(o.owner, o.member_id)} (${o.count}):`,
      ...o.items.map(
        (i) =>
          `  - ${i.text ?? "(no text)"} · ${i.days_late === null ? "days late unknown" : `${days(i.days_late)} late`}${i.reason ? ` · ${i.reason}` : ""} · seen ${day(i.first_seen_at)} to ${day(i.last_seen_at)}`,
      ),
    ]),
    ...moreLine(slipping, "owners"),
    "",
    `KPIs (${kpis.count}):`,
    ...kpis.items.map((k) => {
      const changes = k.status_changes.map((c) => `${c.day} ${c.from ?? "none"}→${c.to ?? "none"}`).join(", ");
      const value = `${JSON.stringify(k.value)}${k.unit ? ` ${k.unit}` : ""}`;
      return `- ${k.name}: ${value} (target ${JSON.stringify(k.target)}) · ${k.status ?? "no status"} · ${days(k.series.length)}${changes ? ` · changes: ${changes}` : ""}`;
    }),
    ...moreLine(kpis, "KPIs"),
    "",
    `Shipped (${shipped.count} people):`,
    ...shipped.items.map((s) => `- ${who(s.owner, s.member_id)}: ${s.count} — ${s.titles.join("; ")}`),
    ...moreLine(shipped, "people"),
  ];
  return lines.join("\n");
}
