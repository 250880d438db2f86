import type { ReportScope } from "@/lib/schemas/reports";

// How the activity trail names a report: by its scope and instant, which say which report it was without quoting
// its text (a headline may hold contact details the API would remove).

/** The trail's kind of subject for reports and imports of them (Settings → Reports shows its lines). */
export const REPORT_SUBJECT = "report";

export function reportSubject(report: { id: string; scope: ReportScope; generated_at: string }) {
  return { type: REPORT_SUBJECT, id: report.id, label: `${report.scope} report of ${report.generated_at}` };
}
