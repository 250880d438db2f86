import type { KeyUsage, UsageOutcome } from "@/lib/data/key-usage";
import { totalRequests, type UsageDay } from "@/lib/usage/totals";
import { formatDate } from "../format";

// A key's requests per UTC day as stacked bars, drawn on the server as one small SVG: one path per outcome, so 200
// keys on the page cost 600 paths, not 18,000 rectangles. The numbers are text beside it and in the SVG's title,
// which is its accessible name.

const BAR_WIDTH = 3;
const BAR_STEP = 4;
const HEIGHT = 28;

// Bottom to top, with the labels the text alternative and the legend use.
const SERIES: { outcome: UsageOutcome; label: string; className: string }[] = [
  { outcome: "successes", label: "succeeded", className: "usage-chart__successes" },
  { outcome: "client_errors", label: "client errors", className: "usage-chart__client-errors" },
  { outcome: "rate_limited", label: "rate-limited", className: "usage-chart__rate-limited" },
];

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;

/** The bars of one outcome as one path, stacked on what lies below it on each day. */
function seriesPath(days: UsageDay[], series: number, peak: number): string {
  const parts: string[] = [];
  days.forEach((day, i) => {
    if (day[SERIES[series]!.outcome] === 0) return;
    // Each segment is at least a pixel tall, so one refusal among thousands of successes still shows.
    const height = (outcome: UsageOutcome) => (day[outcome] === 0 ? 0 : Math.max(1, (day[outcome] / peak) * HEIGHT));
    const below = SERIES.slice(0, series).reduce((sum, s) => sum + height(s.outcome), 0);
    const own = height(SERIES[series]!.outcome);
    const top = Math.max(0, HEIGHT - below - own);
    parts.push(`M${i * BAR_STEP} ${top.toFixed(1)}h${BAR_WIDTH}V${(HEIGHT - below).toFixed(1)}h-${BAR_WIDTH}z`);
  });
  return parts.join("");
}

function usageDescription(usage: KeyUsage): string {
  const { totals, days } = usage;
  const busiest = days.reduce((best, day) => (totalRequests(day) > totalRequests(best) ? day : best));
  const split = SERIES.map((s) => `${totals[s.outcome].toLocaleString("en-GB")} ${s.label}`).join(", ");
  return (
    `Requests per day over the last 30 days: ${plural(totalRequests(totals), "request", "requests")} (${split}); ` +
    `busiest day ${formatDate(new Date(busiest.date))} with ${totalRequests(busiest).toLocaleString("en-GB")}.`
  );
}

export function UsageChart({ usage }: { usage: KeyUsage }) {
  const total = totalRequests(usage.totals);
  if (total === 0) return <span className="muted">No requests</span>;
  const peak = Math.max(...usage.days.map(totalRequests));
  const refused = [
    usage.totals.client_errors ? plural(usage.totals.client_errors, "client error", "client errors") : "",
    usage.totals.rate_limited ? `${usage.totals.rate_limited.toLocaleString("en-GB")} rate-limited` : "",
  ].filter(Boolean);
  const width = usage.days.length * BAR_STEP - (BAR_STEP - BAR_WIDTH);
  return (
    <div className="usage">
      <svg className="usage-chart" role="img" viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT}>
        {/* The chart's accessible name, and its tooltip. */}
        <title>{usageDescription(usage)}</title>
        <path className="usage-chart__baseline" d={`M0 ${HEIGHT - 0.5}H${width}`} />
        {SERIES.map((series, i) => (
          <path key={series.outcome} className={series.className} d={seriesPath(usage.days, i, peak)} />
        ))}
      </svg>
      <span className="usage-total">{plural(total, "request", "requests")}</span>
      {refused.length > 0 && <span className="usage-refused">{refused.join(", ")}</span>}
    </div>
  );
}

/** What the bars' colours mean, once for the whole table. */
export function UsageLegend() {
  return (
    <p className="usage-legend muted">
      Requests per UTC day over the last 30 days, new ones within about a minute:{" "}
      {SERIES.map((series) => (
        <span key={series.outcome} className="usage-legend__item">
          <span className={`usage-legend__swatch ${series.className}`} aria-hidden="true" />
          {series.label}
        </span>
      ))}
    </p>
  );
}
