import type { Identity } from "@/lib/schemas/identity";
import type { ReportList } from "@/lib/schemas/reports";
import type { TeamList } from "@/lib/schemas/team";
import { renderReport } from "@/lib/markdown/report-text";

// Compact text twins of the structured tool results, for clients that show the model only text.
// They carry the same facts as structuredContent, one line per item. A full report's text is
// lib/markdown/report-text.ts's, shared with REST's markdown.

export function renderIdentity(identity: Identity): string {
  return [
    `Organization: ${identity.organization.name} (id ${identity.organization.id})`,
    `Scopes: ${identity.scopes.join(", ") || "none"}`,
  ].join("\n");
}

export function renderReportList(list: ReportList): string {
  if (list.count === 0) return "No reports match.";
  const lines = list.reports.map((r) => {
    // expand=report: each report in full, as get_report's text writes it.
    if (r.report) return `\n${renderReport({ ...r, report: r.report })}`;
    const target = r.scope_target_id ? ` for ${r.scope_target_id}` : "";
    return `- ${r.generated_at} · ${r.scope}${target} · ${r.headline ?? "(no headline)"} · id ${r.id}`;
  });
  const cut = list.truncated ? ["The whole reports filled this page before its limit; the rest follow."] : [];
  const more = list.next_cursor
    ? [...cut, `More reports follow: call list_reports again with the same filters and cursor: ${list.next_cursor}`]
    : [];
  return [`${list.count} report${list.count === 1 ? "" : "s"}, most recent first:`, ...lines, ...more].join("\n");
}

export function renderTeam(team: TeamList): string {
  if (team.count === 0) return "No team members.";
  const lines = team.members.map((m) => {
    const flags = [m.is_external ? "external" : null, m.active ? null : "inactive"].filter(Boolean);
    const department = m.department ?? "no department";
    return `- ${m.name} · ${m.role} · ${department}${flags.length ? ` · ${flags.join(", ")}` : ""} · id ${m.id}`;
  });
  return [`${team.count} member${team.count === 1 ? "" : "s"}:`, ...lines].join("\n");
}
