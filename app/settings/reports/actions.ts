"use server";

import { confirmUpload, previewUpload, removeReport } from "@/lib/settings/report-actions";

// Server actions of /settings/reports, each the settings kit's pipeline (lib/settings/action.ts).

export const removeReportAction = removeReport.serve;
export const previewUploadAction = previewUpload.serve;
export const confirmUploadAction = confirmUpload.serve;
