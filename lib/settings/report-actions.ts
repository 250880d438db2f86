import { randomUUID } from "node:crypto";
import {
  formatImportIssues,
  ImportError,
  importReports,
  parseImportText,
  previewImport,
  validateImportReports,
  type ImportWording,
} from "@/lib/data/import-reports";
import { deleteReport } from "@/lib/data/report-deletion";
import { ApiError } from "@/lib/errors";
import { deliverSoon } from "@/lib/webhooks/soon";
import { settingsAction, type StateOf } from "./action";
import { confirmUploadInput, deleteReportInput, previewUploadInput, uploadFields } from "./report-inputs";
import { singleFields } from "./form-fields";

// Settings → Reports: delete a report, and import a file in two steps, a preview that writes nothing and the
// confirmation that imports it all or nothing. The file's checks and messages are `sundown reports import`'s
// (lib/data/import-reports.ts), with the page's words for how to ask for replacing.

const NOT_IN_ORGANIZATION = "This report does not exist in your organization.";

/** How the page names what it was sent and how replacing is asked for on it. */
export const UPLOAD_WORDING: ImportWording = {
  subject: "The file",
  replaceHint: "tick “Replace stored reports that differ” and preview again",
};

export const removeReport = settingsAction({
  section: "reports",
  read: singleFields("reportId"),
  schema: deleteReportInput,
  notFound: NOT_IN_ORGANIZATION,
  run: async ({ reportId }, { organizationId, actor }) => {
    await deleteReport(organizationId, reportId, actor);
    return { status: "deleted" as const, reportId };
  },
  audit: { action: "reports.delete", ids: ({ reportId }) => ({ report_id: reportId }) },
  // Its report.deleted event, sent now rather than on the loop's next pass.
  after: () => deliverSoon(),
});

/**
 * What a preview found: the counts an import would have now and the file's text to confirm it with, or the
 * problems that would refuse it. Each preview has an id of its own, so the page starts each one afresh.
 */
export type UploadPreview = { previewId: string } & (
  | {
      status: "previewed";
      ok: true;
      added: number;
      unchanged: number;
      replaced: number;
      content: string;
      replace: boolean;
      fileName: string;
    }
  | { status: "previewed"; ok: false; problems: string[]; fileName: string }
);

export const previewUpload = settingsAction({
  section: "reports",
  read: uploadFields,
  schema: previewUploadInput,
  notFound: "Choose an import file (JSON) to preview.",
  invalid: (error) => error.issues[0]?.message,
  run: async ({ file, replace }, { user }): Promise<UploadPreview> => {
    const content = await file.text();
    try {
      const reports = validateImportReports(parseImportText(content));
      const counts = await previewImport(user.organization, reports, { replace });
      return {
        status: "previewed",
        ok: true,
        previewId: randomUUID(),
        ...counts,
        content,
        replace,
        fileName: file.name,
      };
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      const problems = formatImportIssues(error.issues, UPLOAD_WORDING).split("\n");
      return { status: "previewed", ok: false, previewId: randomUUID(), problems, fileName: file.name };
    }
  },
  audit: { action: "reports.preview-upload" },
});

export const confirmUpload = settingsAction({
  section: "reports",
  read: singleFields("content", "replace"),
  schema: confirmUploadInput,
  notFound: "Preview the file again: nothing was sent to import.",
  invalid: (error) => error.issues[0]?.message,
  run: async ({ content, replace }, { user, actor }) => {
    try {
      // Checked whole again: what is stored may have changed since the preview.
      const reports = validateImportReports(parseImportText(content));
      const { added, unchanged, replaced } = await importReports(user.organization, reports, { replace, actor });
      return { status: "imported" as const, added, unchanged, replaced };
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      throw new ApiError(
        error.onlyConflicts ? "conflict" : "invalid_parameter",
        formatImportIssues(error.issues, UPLOAD_WORDING),
      );
    }
  },
  audit: {
    action: "reports.import",
    done: ({ added, unchanged, replaced }) => ({
      added: `${added}`,
      unchanged: `${unchanged}`,
      replaced: `${replaced}`,
    }),
  },
  after: () => deliverSoon(),
});

export type RemoveReportState = StateOf<typeof removeReport>;
export type PreviewUploadState = StateOf<typeof previewUpload>;
export type ConfirmUploadState = StateOf<typeof confirmUpload>;
