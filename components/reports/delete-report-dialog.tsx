"use client";

import type { RemoveReportState } from "@/lib/settings/report-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";

export interface ReportTarget {
  id: string;
  /** How the dialog names it: its scope, person and time. */
  label: string;
}

interface Props {
  target: ReportTarget;
  action: (previous: RemoveReportState, formData: FormData) => Promise<RemoveReportState>;
  onClose: (done: { reportId: string } | undefined) => void;
  focusAfterDone?: string;
}

export function DeleteReportDialog({ target, action, onClose, focusAfterDone }: Props) {
  return (
    <ConfirmDialog
      idField={{ name: "reportId", value: target.id }}
      title={<>Delete the {target.label}?</>}
      description={
        <>
          It is gone for good: the API, MCP and every agent answer &ldquo;not found&rdquo; for it from now on, and
          webhook endpoints subscribed to <code>report.deleted</code> are told. To correct a report instead, import it
          again with &ldquo;Replace stored reports that differ&rdquo;.
        </>
      }
      action={action}
      submit={{ label: "Delete report", busy: "Deleting…", className: "button button--danger" }}
      onClose={onClose}
      focusAfterDone={focusAfterDone}
    />
  );
}
