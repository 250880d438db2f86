"use server";

import { removeReport, uploadReports } from "@/lib/settings/report-actions";

// Server actions of /settings/reports, each the settings kit's pipeline (lib/settings/action.ts).

export const removeReportAction = removeReport.serve;
export const uploadReportsAction = uploadReports.serve;
