import type { Metadata } from "next";
import { KpiTargetForm } from "@/components/organization/kpi-target-form";
import { OrganizationForm } from "@/components/organization/organization-form";
import { ScheduleForm } from "@/components/organization/schedule-form";
import { ActivityLog } from "@/components/settings/activity-log";
import { RemoveButton } from "@/components/settings/remove-button";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { SettingsTable } from "@/components/settings/settings-table";
import { listActivity } from "@/lib/data/activity";
import { listKpiTargets, type KpiTarget } from "@/lib/data/kpi-targets";
import { getOrganizationSettings, ORGANIZATION_SUBJECT, weekdaysText } from "@/lib/data/organizations";
import { ORGANIZATION_NAME_MAX } from "@/lib/schemas/visible-name";
import { KPI_NAME_MAX } from "@/lib/settings/organization-actions";
import { mayChange, settingsSection } from "@/lib/settings/sections";
import { removeKpiTargetAction, setKpiTargetAction, updateOrganizationAction, updateScheduleAction } from "./actions";

export const metadata: Metadata = { title: settingsSection("organization").label };

const VERBS = {
  renamed: "renamed",
  time_zone_changed: "changed the time zone of",
  cutoff_changed: "changed the cutoff of",
  working_days_changed: "changed the working days of",
  kpi_target_set: "set a target for",
  kpi_target_changed: "changed the target of",
  kpi_target_removed: "removed the target of",
};

/** Every zone the time zone rule accepts (lib/schemas/time-zone.ts): UTC, then the runtime's IANA names. */
const TIME_ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];

const DIRECTIONS = { at_least: "at least", at_most: "at most" } as const;

function TargetsTable({ targets, removable }: { targets: KpiTarget[]; removable: boolean }) {
  if (targets.length === 0) return <p className="empty">No KPI targets yet.</p>;
  return (
    <SettingsTable label="KPI targets" columns={["KPI", "Target", "On track when", "Unit"]} actions={removable}>
      {targets.map((t) => (
        <tr key={t.nameKey}>
          <td>{t.name}</td>
          <td className="mono">{t.target}</td>
          <td>{DIRECTIONS[t.direction]} the target</td>
          <td>{t.unit ?? <span className="muted">none</span>}</td>
          {removable && (
            <td>
              <RemoveButton
                fields={{ nameKey: t.nameKey }}
                label={`the target of ${t.name}`}
                action={removeKpiTargetAction}
              />
            </td>
          )}
        </tr>
      ))}
    </SettingsTable>
  );
}

// The organization's own settings, a card each: founders change them, leads see them as they are.
export default settingsPage("organization", async ({ user, heading }) => {
  const [current, targets, trail] = await Promise.all([
    getOrganizationSettings(user.organization.id),
    listKpiTargets(user.organization.id),
    listActivity(user.organization.id, [ORGANIZATION_SUBJECT]),
  ]);
  const founder = mayChange(user, settingsSection("organization"));
  const timeZones = TIME_ZONES.includes(current.timeZone) ? TIME_ZONES : [current.timeZone, ...TIME_ZONES];
  return (
    <>
      <SectionHead title={heading}>
        {user.organization.name}&rsquo;s own settings. Every change is in the activity below.
      </SectionHead>
      <div className="stack">
        {founder ? (
          <>
            <OrganizationForm
              action={updateOrganizationAction}
              current={current}
              timeZones={timeZones}
              nameMax={ORGANIZATION_NAME_MAX}
            />
            <ScheduleForm action={updateScheduleAction} current={current} timeZone={current.timeZone} />
          </>
        ) : (
          <section className="card" aria-labelledby="organization-title">
            <h2 id="organization-title">The organization&rsquo;s day</h2>
            <p className="hint" style={{ marginBottom: "0.75rem" }}>
              Only founders change these; ask one of them.
            </p>
            <dl className="settings-facts">
              <dt>Name</dt>
              <dd>{current.name}</dd>
              <dt>Time zone</dt>
              <dd>{current.timeZone.replaceAll("_", " ")}</dd>
              <dt>Reports are written at</dt>
              <dd>
                {current.cutoffTime} ({weekdaysText(current.workingDays)})
              </dd>
            </dl>
          </section>
        )}
        <section className="card stack" aria-labelledby="kpi-title" style={{ gap: "1rem" }}>
          <div>
            <h2 id="kpi-title">KPI targets</h2>
            <p className="hint">
              Founders and leads report KPI values in their updates; the organization&rsquo;s report says which are on
              track against these targets.
            </p>
          </div>
          <TargetsTable targets={targets} removable={founder} />
          {founder && <KpiTargetForm action={setKpiTargetAction} nameMax={KPI_NAME_MAX} />}
        </section>
        <ActivityLog
          lines={trail}
          verbs={VERBS}
          detail={(detail) =>
            "from" in detail ? `${String(detail.from)} → ${String(detail.to)}` : String(detail.target ?? "")
          }
          summary="Changes to the organization's settings, newest first"
          empty="No changes yet."
        />
      </div>
    </>
  );
});
