"use server";

import {
  removeKpiTargetAction as removeKpiTarget,
  setKpiTargetAction as setKpiTarget,
  updateOrganization,
  updateReportSchedule,
} from "@/lib/settings/organization-actions";

// Server actions of /settings/organization, the settings kit's pipeline (lib/settings/action.ts).

export const updateOrganizationAction = updateOrganization.serve;
export const updateScheduleAction = updateReportSchedule.serve;
export const setKpiTargetAction = setKpiTarget.serve;
export const removeKpiTargetAction = removeKpiTarget.serve;
