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
import type { Actor } from "@/lib/data/activity";
import type { OrganizationRef } from "@/lib/data/organizations";
import { deleteReport } from "@/lib/data/report-deletion";
import { ApiError } from "@/lib/errors";
import { deliverSoon } from "@/lib/webhooks/soon";
import { settingsAction, type StateOf } from "./action";
import { deleteReportInput, uploadFields, uploadInput } from "./report-inputs";
import { singleFields } from "./form-fields";

// Settings → Reports: delete a report, and import a file in two steps, a preview that writes nothing and the
// confirmation that imports it all or nothing (one action, uploadReports). The file's checks and messages are `sundown reports import`'s
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

/** What the confirmed import did, said under the file's name. */
export interface UploadImported {
  status: "imported";
  fileName: string;
  added: number;
  unchanged: number;
  replaced: number;
}

async function previewFile(file: File, replace: boolean, organization: OrganizationRef): Promise<UploadPreview> {
  const content = await file.text();
  const previewId = randomUUID();
  try {
    const reports = validateImportReports(parseImportText(content));
    const counts = await previewImport(organization, reports, { replace });
    return { status: "previewed", ok: true, previewId, ...counts, content, replace, fileName: file.name };
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    const problems = formatImportIssues(error.issues, UPLOAD_WORDING).split("\n");
    return { status: "previewed", ok: false, previewId, problems, fileName: file.name };
  }
}

async function importPreviewed(
  { content, replace, fileName }: { content: string; replace: boolean; fileName: string },
  organization: OrganizationRef,
  actor: Actor,
): Promise<UploadImported> {
  try {
    // Checked whole again: what is stored may have changed since the preview.
    const reports = validateImportReports(parseImportText(content));
    const { added, unchanged, replaced } = await importReports(organization, reports, { replace, actor });
    return { status: "imported", fileName, added, unchanged, replaced };
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    throw new ApiError(
      error.onlyConflicts ? "conflict" : "invalid_parameter",
      formatImportIssues(error.issues, UPLOAD_WORDING),
    );
  }
}

/**
 * The upload, one action in two steps (the form's `intent`): "preview" checks the chosen file and writes nothing;
 * "import" imports the text the preview handed back, all or nothing. One action, so one state holds the preview
 * and then the import's answer, with JavaScript or without it (the page renders the action's answer).
 */
export const uploadReports = settingsAction({
  section: "reports",
  read: uploadFields,
  schema: uploadInput,
  notFound: "Choose an import file (JSON) to preview.",
  invalid: (error) => error.issues[0]?.message,
  run: (input, { user, actor }): Promise<UploadPreview | UploadImported> =>
    input.intent === "preview"
      ? previewFile(input.file, input.replace, user.organization)
      : importPreviewed(input, user.organization, actor),
  audit: {
    action: "reports.upload",
    ids: (input) => ({ intent: input.intent }),
    done: (done): Record<string, string> =>
      done.status === "imported"
        ? { added: `${done.added}`, unchanged: `${done.unchanged}`, replaced: `${done.replaced}` }
        : {},
  },
  // The added and replaced reports' events, sent now rather than on the loop's next pass.
  after: (done) => {
    if (done.status === "imported") deliverSoon();
  },
});

export type RemoveReportState = StateOf<typeof removeReport>;
export type UploadState = StateOf<typeof uploadReports>;
