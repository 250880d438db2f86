"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { RemoveReportState } from "@/lib/settings/report-actions";
import { DeleteReportDialog, type ReportTarget } from "./delete-report-dialog";

interface Props {
  target: ReportTarget;
  action: (previous: RemoveReportState, formData: FormData) => Promise<RemoveReportState>;
}

/** A report page's Delete: the confirmation, then back to the list, where the report is no longer. */
export function ReportDeleteButton({ target, action }: Props) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  return (
    <>
      <button type="button" className="button button--danger" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Delete report
      </button>
      {open && (
        <DeleteReportDialog
          target={target}
          action={action}
          onClose={(done) => {
            setOpen(false);
            if (done) router.push("/settings/reports");
          }}
        />
      )}
    </>
  );
}
