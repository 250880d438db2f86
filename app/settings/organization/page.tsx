import type { Metadata } from "next";
import { OrganizationForm } from "@/components/organization/organization-form";
import { ActivityLog } from "@/components/settings/activity-log";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { listActivity } from "@/lib/data/activity";
import { getOrganizationSettings, ORGANIZATION_SUBJECT } from "@/lib/data/organizations";
import { ORGANIZATION_NAME_MAX } from "@/lib/schemas/visible-name";
import { settingsSection } from "@/lib/settings/sections";
import { updateOrganizationAction } from "./actions";

export const metadata: Metadata = { title: settingsSection("organization").label };

const VERBS = { renamed: "renamed", time_zone_changed: "changed the time zone of" };

/** Every zone the time zone rule accepts (lib/schemas/time-zone.ts): UTC, then the runtime's IANA names. */
const TIME_ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];

export default settingsPage("organization", async ({ user, heading }) => {
  const [current, trail] = await Promise.all([
    getOrganizationSettings(user.organization.id),
    listActivity(user.organization.id, [ORGANIZATION_SUBJECT]),
  ]);
  const timeZones = TIME_ZONES.includes(current.timeZone) ? TIME_ZONES : [current.timeZone, ...TIME_ZONES];
  return (
    <>
      <SectionHead title={heading}>
        {user.organization.name}&rsquo;s own settings. Every change is in the activity below.
      </SectionHead>
      <div className="stack">
        <OrganizationForm
          action={updateOrganizationAction}
          current={current}
          timeZones={timeZones}
          nameMax={ORGANIZATION_NAME_MAX}
        />
        <ActivityLog
          lines={trail}
          verbs={VERBS}
          detail={({ from, to }) => `${String(from)} → ${String(to)}`}
          summary="Changes to the organization's settings, newest first"
          empty="No changes yet."
        />
      </div>
    </>
  );
});
