import type { Identity } from "@/lib/schemas/identity";
import type { Report, ReportList } from "@/lib/schemas/reports";
import type { TeamList } from "@/lib/schemas/team";

// Compact text twins of the structured tool results, for clients that show the model only text.
// They carry the same facts as structuredContent, one line per item.

const SECTIONS = ["blockers", "slipping", "silent", "shipped", "kpi_status"] as const;
const SECTION_TITLES: Record<(typeof SECTIONS)[number], string> = {
  blockers: "Blockers",
  slipping: "Slipping",
  silent: "Silent",
  shipped: "Shipped",
  kpi_status: "KPI status",
};
// The field that names an item, when a report tool wrote one; everything else follows as key: value.
const LABEL_KEYS = ["title", "description", "item", "name", "member", "summary", "text"];

function renderValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function renderItem(item: Record<string, unknown>): string {
  const labelKey = LABEL_KEYS.find((k) => typeof item[k] === "string");
  const rest = Object.entries(item)
    .filter(([k]) => k !== labelKey)
    .map(([k, v]) => `${k}: ${renderValue(v)}`);
  if (!labelKey) return rest.join(", ") || "(empty)";
  return rest.length ? `${item[labelKey]} — ${rest.join(", ")}` : String(item[labelKey]);
}

export function renderIdentity(identity: Identity): string {
  return [
    `Organization: ${identity.organization.name} (id ${identity.organization.id})`,
    `Scopes: ${identity.scopes.join(", ") || "none"}`,
  ].join("\n");
}

export function renderReportList(list: ReportList): string {
  if (list.count === 0) return "No reports match.";
  const lines = list.reports.map((r) => {
    const target = r.scope_target_id ? ` for ${r.scope_target_id}` : "";
    return `- ${r.generated_at} · ${r.scope}${target} · ${r.headline ?? "(no headline)"} · id ${r.id}`;
  });
  const more = list.next_cursor
    ? [`More reports follow: call list_reports again with the same filters and cursor: ${list.next_cursor}`]
    : [];
  return [`${list.count} report${list.count === 1 ? "" : "s"}, most recent first:`, ...lines, ...more].join("\n");
}

export function renderReport(report: Report): string {
  const { headline, ...content } = report.report;
  const target = report.scope_target_id ? ` for ${report.scope_target_id}` : "";
  const lines = [
    `Report ${report.id} · ${report.scope}${target} · generated ${report.generated_at}`,
    `Headline: ${headline}`,
  ];
  for (const section of SECTIONS) {
    const items = content[section];
    lines.push("", `${SECTION_TITLES[section]} (${items.length}):`);
    lines.push(...(items.length ? items.map((item) => `- ${renderItem(item)}`) : ["- none"]));
  }
  const extra = Object.entries(content).filter(([k]) => !(SECTIONS as readonly string[]).includes(k));
  if (extra.length) {
    lines.push("", "Other fields:", ...extra.map(([k, v]) => `- ${k}: ${renderValue(v)}`));
  }
  return lines.join("\n");
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
