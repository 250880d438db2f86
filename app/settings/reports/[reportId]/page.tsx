import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ReportDeleteButton } from "@/components/reports/report-delete-button";
import { formatInZone } from "@/components/reports/zoned-time";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { getOrganizationSettings } from "@/lib/data/organizations";
import { reportRead } from "@/lib/data/reports";
import { teamRead } from "@/lib/data/team";
import { ApiError } from "@/lib/errors";
import { deleteReportInput } from "@/lib/settings/report-inputs";
import { removeReportAction } from "../actions";

export const metadata: Metadata = { title: "Report" };

type Params = Promise<{ reportId: string }>;

export default settingsPage<{ params: Params }>(
  "reports",
  async ({ user, heading, params }) => {
    // Not an id at all, or not one of this organization's reports (or deleted): the same 404.
    const parsed = deleteReportInput.safeParse(await params);
    if (!parsed.success) notFound();
    const organizationId = user.organization.id;
    // The API's own read: the content exactly as GET /api/v1/reports/{id} serves it, contact details removed.
    const report = await reportRead
      .with(parsed.data.reportId)
      .run(organizationId)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === "not_found") notFound();
        throw error;
      });
    const [{ timeZone }, team] = await Promise.all([
      getOrganizationSettings(organizationId),
      teamRead().run(organizationId),
    ]);
    const about = report.scope_target_id
      ? (team.members.find((m) => m.id === report.scope_target_id)?.name ?? "a former member")
      : user.organization.name;
    const when = formatInZone(report.generated_at, timeZone);

    return (
      <>
        <p style={{ margin: "0 0 0.75rem" }}>
          <Link href="/settings/reports">← All reports</Link>
        </p>
        <SectionHead title={heading}>
          The {report.scope} report about <strong>{about}</strong> of {when}, as agents read it with{" "}
          <code>GET /api/v1/reports/{report.id}</code>: contact details removed.
        </SectionHead>
        <section className="card" aria-labelledby="content-title">
          <div className="section-head">
            <h2 id="content-title">{report.report.headline ?? "No headline"}</h2>
            <ReportDeleteButton
              target={{ id: report.id, label: `${report.scope} report about ${about} of ${when}` }}
              action={removeReportAction}
            />
          </div>
          <pre className="report-json" tabIndex={0} aria-label="The report as the API serves it">
            {JSON.stringify(report, null, 2)}
          </pre>
        </section>
      </>
    );
  },
  {
    heading: "Report",
    path: async ({ params }) => `/settings/reports/${encodeURIComponent((await params).reportId)}`,
  },
);
