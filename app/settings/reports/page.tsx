import type { Metadata } from "next";
import Link from "next/link";
import { ReportFilters } from "@/components/reports/report-filters";
import { ReportTrail } from "@/components/reports/report-trail";
import { ReportsTable, type ReportRow } from "@/components/reports/reports-table";
import { UploadForm } from "@/components/reports/upload-form";
import { formatInZone } from "@/components/reports/zoned-time";
import { EmptyList, ListSection } from "@/components/settings/list-section";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { listActivity } from "@/lib/data/activity";
import { getOrganizationSettings } from "@/lib/data/organizations";
import { REPORT_SUBJECT } from "@/lib/data/report-subject";
import { reportPage } from "@/lib/data/reports";
import { teamRead } from "@/lib/data/team";
import { reportFiltersInput, type ReportListFilters } from "@/lib/settings/report-inputs";
import { settingsSection } from "@/lib/settings/sections";
import { removeReportAction, uploadReportsAction } from "./actions";

export const metadata: Metadata = { title: settingsSection("reports").label };

/** Reports a page lists. */
const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The query's filters; each read once (a repeated one is not this page's). */
function filtersOf(query: Record<string, string | string[] | undefined>): ReportListFilters {
  const single = (name: string) => (typeof query[name] === "string" && query[name] !== "" ? query[name] : undefined);
  return reportFiltersInput.parse({
    day: single("day"),
    scope: single("scope"),
    person: single("person"),
    after: single("after"),
  });
}

/** The list's address with these filters, after a report (the next page). */
function listHref(filters: ReportListFilters, after?: { generated_at: string; id: string }) {
  const query = new URLSearchParams();
  if (filters.day) query.set("day", filters.day);
  if (filters.scope) query.set("scope", filters.scope);
  if (filters.person) query.set("person", filters.person);
  if (after) query.set("after", `${after.generated_at}_${after.id}`);
  const text = query.toString();
  return `/settings/reports${text ? `?${text}` : ""}`;
}

export default settingsPage<{ searchParams: SearchParams }>("reports", async ({ user, heading, searchParams }) => {
  const organizationId = user.organization.id;
  const filters = filtersOf(await searchParams);
  const { timeZone } = await getOrganizationSettings(organizationId);
  const [page, team, trail] = await Promise.all([
    reportPage({
      limit: PAGE_SIZE,
      filters: {
        // A day is the organization's, in its time zone: the list reads it so, as the API does.
        ...(filters.day ? { since: { day: filters.day }, until: { day: filters.day } } : {}),
        scope: filters.scope,
        scope_target_id: filters.person,
      },
      after: filters.after,
    }).run(organizationId),
    teamRead().run(organizationId),
    listActivity(organizationId, [REPORT_SUBJECT]),
  ]);
  const names = new Map(team.members.map((m) => [m.id, m.name]));
  const rows: ReportRow[] = page.reports.map((r) => ({
    id: r.id,
    when: formatInZone(r.generated_at, timeZone),
    scope: r.scope,
    about: r.scope_target_id ? (names.get(r.scope_target_id) ?? "a former member") : user.organization.name,
    headline: r.headline,
  }));
  const last = page.reports.at(-1);
  const filtered = Boolean(filters.day || filters.scope || filters.person);

  return (
    <>
      <SectionHead title={heading}>
        {user.organization.name}&rsquo;s reports as agents read them, contact details removed. Delete a report that
        should not be there, or import a file of reports (a correction replaces the stored report). Every change is in
        the activity below and goes out to the webhook endpoints subscribed to it.
      </SectionHead>
      <div className="stack">
        <UploadForm action={uploadReportsAction} />
        <ListSection
          titleId="reports-title"
          title="Recent reports"
          tally={rows.length > 0 && <>{filters.after ? "A later page" : "Newest first"}</>}
        >
          <ReportFilters filters={filters} people={team.members} timeZone={timeZone} />
          {rows.length === 0 ? (
            <EmptyList title={filtered ? "No reports match these filters" : "No reports yet"}>
              {filtered ? (
                <Link href="/settings/reports">Show every report</Link>
              ) : (
                "Import a file above, or send reports in with an ingest token."
              )}
            </EmptyList>
          ) : (
            <ReportsTable rows={rows} removeAction={removeReportAction} />
          )}
          <nav aria-label="Report pages" className="actions" style={{ marginTop: "1rem" }}>
            {filters.after && <Link href={listHref(filters)}>Newest reports</Link>}
            {page.more && last && <Link href={listHref(filters, last)}>Older reports →</Link>}
          </nav>
        </ListSection>
        <ReportTrail lines={trail} />
      </div>
    </>
  );
});
