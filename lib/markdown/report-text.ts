import type { Report } from "@/lib/schemas/reports";

// A report as plain text, one line per item: the text the MCP tools show a model next to the structured
// result, and the body of GET /api/v1/reports/{id} as markdown. One rendering, so both surfaces put the same
// words in front of a model; it lives here, beside the markdown, so REST does not depend on the MCP adapter.

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
